# shellcheck shell=bash
# Shared settings and helpers for stack/start.sh, stack/stop.sh and stack/status.sh.
#
# The local stack is what the project runs on a machine without a Docker
# engine (see docs/design.md, "Real parts, and how they start"):
#   - Elasticsearch: the integration-test zip Elastic publishes on Maven
#     Central, run with the machine's JDK as one node on 127.0.0.1;
#   - a MongoDB-wire server: mongo-java-server (H2 MVStore file storage) from
#     Maven Central, started by the small launcher stack/mongo/CatalogMongoServer.java
#     with the same JDK (its unique indexes serve our lookups; see docs/decisions.md).
# Downloads, builds, data, logs and pidfiles live in a cache folder outside the
# repository, so nothing third-party is ever committed.

# ---- settings (all overridable from the environment) ------------------------
# (used by the scripts that source this file)
# shellcheck disable=SC2034

STACK_SRC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE_DIR="${CATALOG_STACK_DIR:-$HOME/.cache/catalog-stack}"

ES_VERSION="8.19.21"
ES_ZIP_URL="https://repo1.maven.org/maven2/org/elasticsearch/distribution/integ-test-zip/elasticsearch/${ES_VERSION}/elasticsearch-${ES_VERSION}.zip"
ES_PORT="${ES_PORT:-9200}"
# 9300 is the usual transport port of any other ES on the machine; this node
# never talks to another one, so pick a port nobody else is likely to use.
ES_TRANSPORT_PORT="${ES_TRANSPORT_PORT:-19300}"
ES_HEAP="${CATALOG_ES_HEAP:-512m}"
# More JVM options for the nodes started here (none by default), after the heap: a test's own cluster, say.
ES_EXTRA_JAVA_OPTS="${CATALOG_ES_JAVA_OPTS:-}"
# ES refuses to run as root, so it runs as this dedicated system user.
ES_USER="catalog-es"
ES_HEALTH_TIMEOUT="${CATALOG_ES_TIMEOUT:-120}"
# Nodes of the local Elasticsearch: 1 (the default) is one node with single-node discovery; N > 1 is
# a cluster of N nodes on loopback, node i on http ES_PORT+i-1 and transport ES_TRANSPORT_PORT+i-1,
# each with its own folder (config, data, logs, pidfile) and heap (docs/operations.md, "Scale-out").
ES_NODES="${STACK_ES_NODES:-1}"
[[ "$ES_NODES" =~ ^[1-9][0-9]?$ ]] || { printf '[stack] ERROR: STACK_ES_NODES must be a number of nodes (1-99), got "%s"\n' "$ES_NODES" >&2; exit 1; }

MONGO_PORT="${MONGO_PORT:-27017}"
MONGO_TIMEOUT="${CATALOG_MONGO_TIMEOUT:-60}"
# Heap of the Mongo-wire server, and its page cache (MB) inside that heap: 100,000 homes run in 2 GB.
MONGO_HEAP="${CATALOG_MONGO_HEAP:-2g}"
MONGO_CACHE_MB="${CATALOG_MONGO_CACHE_MB:-64}"

# es_node_port I: the http port of node I (1-based); es_node_transport_port I: its transport port.
es_node_port() { printf '%s' "$((ES_PORT + $1 - 1))"; }
es_node_transport_port() { printf '%s' "$((ES_TRANSPORT_PORT + $1 - 1))"; }
# One URL per node, comma-separated, as ES_URL takes them.
LOCAL_ES_URL="$(for ((i = 1; i <= ES_NODES; i++)); do printf '%shttp://127.0.0.1:%s' "$([[ $i -gt 1 ]] && echo ,)" "$((ES_PORT + i - 1))"; done)"
LOCAL_MONGO_URL="mongodb://127.0.0.1:${MONGO_PORT}/"

MONGO_DIR="$CACHE_DIR/mongo-java-server"      # jars (lib/), compiled launcher (classes/), Maven repo (m2/)
MONGO_DATA="$CACHE_DIR/mongo-data"            # the MVStore file
MONGO_PIDFILE="$CACHE_DIR/mongo.pid"
MONGO_KEYFILE="$CACHE_DIR/mongo.build-key"    # the build of stack/mongo the running server started from
MONGO_LOG="$CACHE_DIR/logs/mongo.log"
MONGO_MAIN="CatalogMongoServer"

# ---- small helpers ----------------------------------------------------------

log() { printf '[stack] %s\n' "$*" >&2; }
die() { printf '[stack] ERROR: %s\n' "$*" >&2; exit 1; }

# pid_alive PIDFILE NEEDLE: true when PIDFILE names a live process whose
# command line contains NEEDLE. Checking the command line keeps a recycled pid
# (after a reboot, say) from being taken for our server.
pid_alive() {
  local pidfile="$1" needle="$2" pid
  [[ -s "$pidfile" ]] || return 1
  pid="$(tr -dc '0-9' <"$pidfile")"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$needle"
}

pid_of() { tr -dc '0-9' <"$1" 2>/dev/null || true; }

# tcp_open HOST PORT: true when something accepts TCP connections there.
tcp_open() {
  (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null
}

# host and port of a URL like http://host:port/... or mongodb://host:port/...
url_host() { local h="${1#*://}"; h="${h%%/*}"; h="${h##*@}"; printf '%s' "${h%:*}"; }
url_port() {
  local h="${1#*://}"; h="${h%%/*}"; h="${h##*@}"
  if [[ "$h" == *:* ]]; then printf '%s' "${h##*:}"; else printf '%s' "$2"; fi
}

# ---- Elasticsearch ----------------------------------------------------------

# ES refuses to run as root. As root we run it as $ES_USER (created by
# start.sh); as any other user we simply run it as that user.
es_needs_user() { [[ "$(id -u)" -eq 0 ]]; }

# as_es CMD...: run CMD as the user Elasticsearch runs as.
as_es() {
  if es_needs_user; then runuser -u "$ES_USER" -- "$@"; else "$@"; fi
}

# es_base_dir: where the unpacked ES, its data, logs and pidfile live.
# Normally $CACHE_DIR/elasticsearch. But ES runs as $ES_USER, which must be
# able to reach that folder: the default cache is under $HOME, and root's home
# is mode 0700 on Debian. Rather than loosening the permissions of someone's
# home folder, fall back to a folder under the ES user's own home, keyed on the
# cache path so two cache folders never share one ES. CATALOG_ES_DIR overrides.
es_base_dir() {
  if [[ -n "${CATALOG_ES_DIR:-}" ]]; then
    printf '%s' "$CATALOG_ES_DIR"
  elif ! es_needs_user; then
    printf '%s' "$CACHE_DIR/elasticsearch"
  elif id -u "$ES_USER" >/dev/null 2>&1 && [[ -d "$CACHE_DIR" ]] &&
       runuser -u "$ES_USER" -- test -x "$CACHE_DIR" 2>/dev/null; then
    printf '%s' "$CACHE_DIR/elasticsearch"
  else
    local home key
    home="$(getent passwd "$ES_USER" | cut -d: -f6)"
    home="${home:-/var/lib/$ES_USER}"
    key="$(printf '%s' "$(realpath -m "$CACHE_DIR")" | sha1sum | cut -c1-10)"
    printf '%s' "$home/stack-$key"
  fi
}

es_home() { printf '%s/elasticsearch-%s' "$(es_base_dir)" "$ES_VERSION"; }

# es_cluster_name: "catalog-local" for the single node; a cluster is named after its first port,
# so clusters on other ports (a test's, say) never join each other or the single node.
es_cluster_name() { if ((ES_NODES == 1)); then printf 'catalog-local'; else printf 'catalog-cluster-%s' "$ES_PORT"; fi; }
# es_node_dir [I]: the folder of node I (default 1) with its data, logs and pidfile: the base folder
# itself for the single node (as always), <base>/cluster-<ES_PORT>/node-<I> for a cluster's nodes.
es_node_dir() {
  if ((ES_NODES == 1)); then es_base_dir; else printf '%s/cluster-%s/node-%s' "$(es_base_dir)" "$ES_PORT" "${1:-1}"; fi
}
# es_conf_dir [I]: the node's configuration folder (ES_PATH_CONF).
es_conf_dir() { if ((ES_NODES == 1)); then printf '%s/config' "$(es_home)"; else printf '%s/config' "$(es_node_dir "${1:-1}")"; fi; }
es_pidfile() { printf '%s/es.pid' "$(es_node_dir "${1:-1}")"; }
es_logfile() { printf '%s/logs/%s.log' "$(es_node_dir "${1:-1}")" "$(es_cluster_name)"; }

# es_health URLS [NODES]: the cluster health colour, from the first of the comma-separated URLs that
# answers, or nothing if none does. With NODES, nothing also while the cluster has fewer nodes.
es_health() {
  local url body nodes
  for url in ${1//,/ }; do
    body="$(curl -fsS --max-time 5 "$url/_cluster/health" 2>/dev/null)" || continue
    nodes="$(sed -n 's/.*"number_of_nodes":\([0-9]*\).*/\1/p' <<<"$body")"
    if [[ -n "${2:-}" && "${nodes:-0}" -lt "$2" ]]; then return 0; fi
    sed -n 's/.*"status":"\([a-z]*\)".*/\1/p' <<<"$body"
    return 0
  done
}

# es_version URL: prints the node's version number, or nothing.
# Not from GET /: that endpoint lives in the rest-root module, which the
# integration-test zip leaves out (GET / answers 405 there).
es_version() {
  curl -fsS --max-time 5 "${1%%,*}/_nodes/_local?filter_path=nodes.*.version" 2>/dev/null |
    sed -n 's/.*"version":"\([^"]*\)".*/\1/p' || true
}

# es_running [I]: node I (default 1) is alive.
es_running() { pid_alive "$(es_pidfile "${1:-1}")" "org.elasticsearch"; }

# ---- MongoDB wire (mongo-java-server) --------------------------------------

mongo_running() { pid_alive "$MONGO_PIDFILE" "$MONGO_MAIN"; }

# mongo_ping URL: a real MongoDB "ping" command through the Node driver when the
# repository's node_modules has it, else a TCP connect. Prints what it did.
mongo_ping() {
  local url="$1" repo
  repo="$(dirname "$STACK_SRC_DIR")"
  if command -v node >/dev/null 2>&1 && [[ -d "$repo/node_modules/mongodb" ]]; then
    (cd "$repo" && node -e '
      const { MongoClient } = require("mongodb");
      const c = new MongoClient(process.argv[1], { serverSelectionTimeoutMS: 3000 });
      c.connect().then(() => c.db("admin").command({ ping: 1 }))
        .then(r => { console.log("ping ok=" + r.ok + " (node driver)"); return c.close(); })
        .catch(e => { console.error("ping failed: " + e.message); process.exit(1); });
    ' "$url" 2>&1)
  else
    if tcp_open "$(url_host "$url")" "$(url_port "$url" 27017)"; then
      echo "tcp connect ok (no driver available for a real ping)"
    else
      echo "tcp connect to $(url_host "$url"):$(url_port "$url" 27017) failed"; return 1
    fi
  fi
}
