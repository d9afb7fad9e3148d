#!/usr/bin/env bash
# Start the local stack: Elasticsearch and a MongoDB-wire server (mongo-java-server),
# both on 127.0.0.1, for machines without a Docker engine (with one, see
# docker-compose.yml at the repository root).
#
#   bash stack/start.sh            # or: npm run stack:start
#
# Idempotent: a server that is already running and healthy is left alone, a
# stale pidfile is cleaned up. ES_URL / MONGO_URL already set in the
# environment mean "use that server": it is only checked, not started.
#
# On success prints, on stdout and nothing else:
#   ES_URL=http://127.0.0.1:9200
#   MONGO_URL=mongodb://127.0.0.1:27017/
# (also written to $CACHE_DIR/stack.env), so `eval "$(bash stack/start.sh)"` works.
# Progress and errors go to stderr.
#
# Environment: CATALOG_STACK_DIR (cache folder, default ~/.cache/catalog-stack),
# ES_PORT (9200), ES_TRANSPORT_PORT (19300), CATALOG_ES_HEAP (512m),
# CATALOG_ES_JAVA_OPTS (more JVM options for the nodes; none by default),
# CATALOG_ES_TIMEOUT (120 s), MONGO_PORT (27017), CATALOG_MONGO_TIMEOUT (60 s),
# CATALOG_MONGO_HEAP (2g), CATALOG_MONGO_CACHE_MB (64),
# CATALOG_ES_DIR (where ES is unpacked and keeps its data; see lib.sh),
# STACK_ES_NODES (1: one node; N > 1: a cluster of N nodes on http ports ES_PORT.., transport
# ports ES_TRANSPORT_PORT.., each with its own folder and heap; ES_URL is then a comma list).
set -euo pipefail

# shellcheck source=SCRIPTDIR/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

mkdir -p "$CACHE_DIR/logs"

# Two starts at once (say, two test runs) must not both download, unpack or
# launch: serialise them on a lock in the cache folder. The servers are
# launched with fd 9 closed ("9>&-"), else they would hold the lock forever.
exec 9>"$CACHE_DIR/.start.lock"
if ! flock -n 9; then
  log "another stack/start.sh is running; waiting for it to finish"
  flock -w 900 9 || die "another stack/start.sh still holds $CACHE_DIR/.start.lock after 15 min"
fi

# ---- Java --------------------------------------------------------------------

# java_major JAVA_HOME: prints the major version (17, 21, ...) of that JDK.
java_major() {
  local jh="$1" v=""
  [[ -x "$jh/bin/java" ]] || return 1
  if [[ -f "$jh/release" ]]; then
    v="$(sed -n 's/^JAVA_VERSION="\(.*\)"/\1/p' "$jh/release")"
  fi
  if [[ -z "$v" ]]; then
    v="$("$jh/bin/java" -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p' | head -n1)"
  fi
  v="${v#1.}"            # 1.8.0_x -> 8.0_x
  v="${v%%[!0-9]*}"      # keep the leading number
  [[ -n "$v" ]] && printf '%s' "$v"
}

# find_java_home: a JDK 17+ that the ES user can run. JAVA_HOME first when it
# qualifies; else the JDKs under /usr/lib/jvm (CATALOG_JVM_ROOT), preferring the newest release
# up to 24 (the versions ES 8.19 is tested with, 24 being the one its full
# distribution bundles), then anything newer.
find_java_home() {
  local jh major best="" best_major=0 newer="" newer_major=0
  if [[ -n "${JAVA_HOME:-}" ]] && major="$(java_major "$JAVA_HOME")" && ((major >= 17)) &&
     as_es test -x "$JAVA_HOME/bin/java" 2>/dev/null; then
    printf '%s' "$JAVA_HOME"; return 0
  fi
  for jh in "${CATALOG_JVM_ROOT:-/usr/lib/jvm}"/*/; do
    jh="${jh%/}"
    [[ -L "$jh" ]] && continue                     # skip alias symlinks
    major="$(java_major "$jh")" || continue
    ((major >= 17)) || continue
    as_es test -x "$jh/bin/java" 2>/dev/null || continue
    if ((major <= 24)); then
      ((major > best_major)) && { best="$jh"; best_major=$major; }
    else
      { [[ -z "$newer" ]] || ((major < newer_major)); } && { newer="$jh"; newer_major=$major; }
    fi
  done
  [[ -n "$best" ]] && { printf '%s' "$best"; return 0; }
  [[ -n "$newer" ]] && { printf '%s' "$newer"; return 0; }
  return 1
}

# jdk_home: the JDK both servers run on, or a clear way out.
jdk_home() {
  find_java_home || die "no Java 17+ JDK found (JAVA_HOME or /usr/lib/jvm/*). Install one, e.g. 'apt-get install openjdk-17-jdk-headless', or set JAVA_HOME. $ALTERNATIVES"
}

# claim_port PIDFILE PORT NAME URL: drops a stale pidfile, and refuses a port that a process
# this script did not start holds (NAME_PORT / NAME_URL are the ways around it).
claim_port() {
  local pidfile="$1" port="$2" name="$3" url="$4"
  if [[ -e "$pidfile" ]]; then
    log "removing stale pidfile $pidfile"
    rm -f "$pidfile"
  fi
  if tcp_open 127.0.0.1 "$port"; then
    die "port $port is taken by a process this script did not start. Stop it, pick another port with ${name}_PORT=..., or use that server with ${name}_URL=$url"
  fi
}

# ---- Elasticsearch -------------------------------------------------------------

# The other ways to the two servers (docs/design.md, "Real parts, and how they start"), said once for both.
ALTERNATIVES="Alternatively: set ES_URL and MONGO_URL to servers you already have, or, on a machine with a Docker engine, run 'docker compose up'."

ensure_es_user() {
  es_needs_user || return 0
  if ! id -u "$ES_USER" >/dev/null 2>&1; then
    log "creating system user $ES_USER (Elasticsearch refuses to run as root)"
    useradd --system --user-group --home-dir "/var/lib/$ES_USER" --create-home \
      --shell /usr/sbin/nologin "$ES_USER"
  fi
}

# sha1_ok FILE SHA1FILE: the file matches the checksum Maven Central publishes.
sha1_ok() {
  local want got
  want="$(awk '{print $1; exit}' "$2")"
  got="$(sha1sum "$1" | awk '{print $1}')"
  [[ -n "$want" && "$want" == "$got" ]]
}

# ensure_es_zip: the verified zip in the cache (downloaded once, reused after).
ensure_es_zip() {
  local zip="$CACHE_DIR/elasticsearch-$ES_VERSION.zip"
  local sha="$zip.sha1"
  if [[ ! -s "$sha" ]]; then
    curl -fsSL --retry 3 --connect-timeout 20 -o "$sha.part" "$ES_ZIP_URL.sha1" ||
      die "could not download $ES_ZIP_URL.sha1 (needs access to Maven Central)"
    mv "$sha.part" "$sha"
  fi
  if [[ -f "$zip" ]] && sha1_ok "$zip" "$sha"; then
    return 0
  fi
  [[ -f "$zip" ]] && log "cached $zip does not match its .sha1: downloading it again"
  log "downloading Elasticsearch $ES_VERSION (~100 MB) from Maven Central"
  curl -fSL --retry 3 --connect-timeout 20 --progress-bar -o "$zip.part" "$ES_ZIP_URL" ||
    die "could not download $ES_ZIP_URL"
  sha1_ok "$zip.part" "$sha" || { rm -f "$zip.part"; die "downloaded zip does not match $sha"; }
  mv "$zip.part" "$zip"
}

# ensure_es_unpacked: ES unpacked into its base folder, owned by the ES user.
# Unpack into a scratch folder first so an interrupted unzip never leaves a
# half-installed ES that later starts would trust.
ensure_es_unpacked() {
  local base home
  base="$(es_base_dir)"; home="$(es_home)"
  if [[ ! -f "$home/.unpacked" ]]; then
    ensure_es_zip
    log "unpacking Elasticsearch into $home"
    mkdir -p "$base"
    rm -rf "$home" "$base/.unpack"
    unzip -q "$CACHE_DIR/elasticsearch-$ES_VERSION.zip" -d "$base/.unpack"
    mv "$base/.unpack/elasticsearch-$ES_VERSION" "$home"
    rm -rf "$base/.unpack"
    touch "$home/.unpacked"
  fi
  mkdir -p "$base/data" "$base/logs"
  if es_needs_user; then
    chown -R "$ES_USER:$ES_USER" "$base"
  fi
}

# write_es_config I: node I's elasticsearch.yml, rewritten on every start so that a changed port or
# setting here takes effect. One node: single-node discovery in ES's own config folder (as always).
# A cluster: node I gets a config folder of its own (a copy of ES's) and finds the others on the
# transport ports of the cluster; the first start bootstraps the cluster from all N master-eligible nodes.
write_es_config() {
  local i="$1" home dir conf
  home="$(es_home)"; dir="$(es_node_dir "$i")"; conf="$(es_conf_dir "$i")"
  mkdir -p "$dir/data" "$dir/logs"
  if ((ES_NODES > 1)) && [[ ! -f "$conf/jvm.options" ]]; then
    rm -rf "$conf.tmp"; cp -r "$home/config" "$conf.tmp"; mv "$conf.tmp" "$conf"
  fi
  {
    echo "# Written by stack/start.sh on every start: change the script, not this file."
    echo "cluster.name: $(es_cluster_name)"
    echo "node.name: $(es_cluster_name)-$i"
    echo "path.data: $dir/data"
    echo "path.logs: $dir/logs"
    if ((ES_NODES == 1)); then
      # one node, no discovery of others, and no bootstrap checks (loopback only)
      echo "discovery.type: single-node"
    else
      local seeds="" names="" j
      for ((j = 1; j <= ES_NODES; j++)); do
        seeds+="${seeds:+, }\"127.0.0.1:$(es_node_transport_port "$j")\""
        names+="${names:+, }\"$(es_cluster_name)-$j\""
      done
      echo "discovery.seed_hosts: [$seeds]"
      # Only to form a new cluster: a node that has joined one (it has state on disk) must not carry it.
      if [[ ! -d "$dir/data/_state" ]]; then echo "cluster.initial_master_nodes: [$names]"; fi
    fi
    echo "network.host: 127.0.0.1"
    echo "http.port: $(es_node_port "$i")"
    echo "transport.port: $(es_node_transport_port "$i")"
    # local development: no TLS, no users
    echo "xpack.security.enabled: false"
    # a nearly full dev disk must not turn indices read-only under the tests
    echo "cluster.routing.allocation.disk.threshold_enabled: false"
    # let tests delete indices by wildcard
    echo "action.destructive_requires_name: false"
    # a full rebuild force-merges its 12 shards once loaded, while nothing else runs: two at a time
    # (ES's default is one), the new index serves ~3 s sooner at 100,000 homes (docs/performance.md)
    echo "thread_pool.force_merge.size: 2"
    # ES refuses to start on a setting no installed module declares, and the
    # integration-test zip has no ingest-geoip module: only set it if present.
    if [[ -d "$home/modules/ingest-geoip" ]]; then
      echo "ingest.geoip.downloader.enabled: false"
    fi
  } >"$conf/elasticsearch.yml"
  if es_needs_user; then chown -R "$ES_USER:$ES_USER" "$dir" "$conf"; fi
}

# es_all_running: every node of the configuration is alive.
es_all_running() {
  local i
  for ((i = 1; i <= ES_NODES; i++)); do es_running "$i" || return 1; done
}

# wait_es_health URL: until the cluster has all ES_NODES nodes and is yellow or green.
wait_es_health() {
  local url="$1" check_local="${2:-}" deadline status i
  deadline=$((SECONDS + ES_HEALTH_TIMEOUT))
  while ((SECONDS < deadline)); do
    status="$(es_health "$url" "$ES_NODES")"
    if [[ "$status" == green || "$status" == yellow ]]; then
      return 0
    fi
    if [[ -n "$check_local" ]]; then
      for ((i = 1; i <= ES_NODES; i++)); do
        if [[ -s "$(es_pidfile "$i")" ]] && ! es_running "$i"; then
          log "Elasticsearch node $i exited during start"
          return 1
        fi
      done
    fi
    sleep 1
  done
  log "Elasticsearch did not become healthy within ${ES_HEALTH_TIMEOUT}s"
  return 1
}

# es_fail: show why ES did not come up, then stop. Java stack frames are left
# out of the excerpts (they bury the one line that says what went wrong); the
# full logs stay on disk.
es_fail() {
  local f i
  for ((i = 1; i <= ES_NODES; i++)); do
    for f in "$CACHE_DIR/logs/elasticsearch-start$( ((ES_NODES > 1)) && echo "-$ES_PORT-$i").log" "$(es_logfile "$i")"; do
      [[ -s "$f" ]] || continue
      log "--- last lines of $f (stack frames omitted) ---"
      grep -v -E '^[[:space:]]+(at |\.\.\. [0-9]+ more|Suppressed:)' "$f" | tail -n 25 | cut -c1-400 >&2 || true
    done
  done
  if ((ES_NODES > 1)); then
    die "Elasticsearch did not start (see above; 'STACK_ES_NODES=$ES_NODES ES_PORT=$ES_PORT bash stack/stop.sh es' stops these nodes)"
  fi
  die "Elasticsearch did not start (see above; 'bash stack/stop.sh' cleans up)"
}

# launch_es_node I JAVA_HOME: starts node I and returns once its launcher does.
launch_es_node() {
  local i="$1" java_home="$2" home run_as
  home="$(es_home)"
  if es_needs_user; then run_as="$ES_USER"; else run_as="$(id -un)"; fi
  log "starting Elasticsearch $ES_VERSION node $i/$ES_NODES on http://127.0.0.1:$(es_node_port "$i") (JDK $java_home, heap $ES_HEAP, as $run_as)"
  # -d daemonizes (the launcher returns once the node is up or has failed),
  # -p makes the node write its pid. The environment is given explicitly so
  # nothing from the caller's (ES_PATH_CONF, JAVA_TOOL_OPTIONS...) leaks in.
  (cd "$(es_node_dir "$i")" && as_es env -i \
      PATH="/usr/local/bin:/usr/bin:/bin" HOME="$(es_node_dir "$i")" LANG=C.UTF-8 \
      ES_JAVA_HOME="$java_home" ES_PATH_CONF="$(es_conf_dir "$i")" \
      ES_JAVA_OPTS="-Xms$ES_HEAP -Xmx$ES_HEAP${ES_EXTRA_JAVA_OPTS:+ $ES_EXTRA_JAVA_OPTS}" \
      "$home/bin/elasticsearch" -d -p "$(es_pidfile "$i")" \
      >"$CACHE_DIR/logs/elasticsearch-start$( ((ES_NODES > 1)) && echo "-$ES_PORT-$i").log" 2>&1 </dev/null 9>&-)
}

start_es() {
  if [[ -n "${ES_URL:-}" ]]; then
    log "ES_URL is set: using the Elasticsearch at $ES_URL"
    ES_HEALTH_TIMEOUT=15 ES_NODES=1 wait_es_health "$ES_URL" || die "Elasticsearch at ES_URL=$ES_URL does not answer /_cluster/health"
    log "Elasticsearch $(es_version "$ES_URL") at $ES_URL is $(es_health "$ES_URL")"
    return 0
  fi
  ES_URL="$LOCAL_ES_URL"

  ensure_es_user
  if es_all_running; then
    if wait_es_health "$ES_URL" local; then
      log "Elasticsearch already running ($ES_NODES node(s)) at $ES_URL: $(es_health "$ES_URL")"
      return 0
    fi
    es_fail
  fi
  local java_home i t0=$SECONDS pids=() failed=0
  for ((i = 1; i <= ES_NODES; i++)); do
    es_running "$i" || claim_port "$(es_pidfile "$i")" "$(es_node_port "$i")" ES "http://127.0.0.1:$(es_node_port "$i")"
  done
  java_home="$(jdk_home)"
  ensure_es_unpacked
  # The nodes that are down start together: a cluster's first node waits for the others to form it.
  for ((i = 1; i <= ES_NODES; i++)); do
    es_running "$i" && continue
    write_es_config "$i"
    launch_es_node "$i" "$java_home" &
    pids+=($!)
  done
  for i in "${pids[@]}"; do wait "$i" || failed=1; done
  ((failed == 0)) || es_fail
  wait_es_health "$ES_URL" local || es_fail
  log "Elasticsearch up in $((SECONDS - t0))s ($ES_NODES node(s)): $(es_health "$ES_URL")"
}

# ---- MongoDB wire (mongo-java-server) ---------------------------------------------

# build_mongo JAVA_HOME: the server's jars (Maven Central, checksums enforced) and the
# compiled launcher (stack/mongo/*.java) in the cache, redone when stack/mongo/* or the JDK changed.
build_mongo() {
  local java_home="$1" src="$STACK_SRC_DIR/mongo" key
  key="$(cat "$src/pom.xml" "$src"/*.java <("$java_home/bin/java" -version 2>&1) | sha256sum | cut -c1-16)"
  if [[ -f "$MONGO_DIR/classes/$MONGO_MAIN.class" && "$(cat "$MONGO_DIR/build.key" 2>/dev/null)" == "$key" ]]; then
    return 0
  fi
  command -v mvn >/dev/null 2>&1 ||
    die "Maven is not installed; it resolves the Mongo-wire server's jars from Maven Central ('apt-get install maven'). $ALTERNATIVES"
  [[ -x "$java_home/bin/javac" ]] ||
    die "$java_home has no javac: install a JDK ('apt-get install openjdk-17-jdk-headless'), not only a JRE. $ALTERNATIVES"
  log "resolving mongo-java-server from Maven Central into $MONGO_DIR (first run only)"
  local t0=$SECONDS
  rm -rf "$MONGO_DIR/lib.tmp" "$MONGO_DIR/classes.tmp"
  mkdir -p "$MONGO_DIR"
  # -C: fail on a checksum mismatch instead of warning
  JAVA_HOME="$java_home" mvn -B -q -C -Dmaven.repo.local="$MONGO_DIR/m2" -f "$src/pom.xml" \
    dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$MONGO_DIR/lib.tmp" \
    >"$CACHE_DIR/logs/mongo-build.log" 2>&1 </dev/null ||
    { tail -n 30 "$CACHE_DIR/logs/mongo-build.log" >&2; die "could not resolve the Mongo-wire server's jars from Maven Central"; }
  "$java_home/bin/javac" -nowarn -d "$MONGO_DIR/classes.tmp" -cp "$MONGO_DIR/lib.tmp/*" "$src"/*.java \
    >>"$CACHE_DIR/logs/mongo-build.log" 2>&1 ||
    { tail -n 30 "$CACHE_DIR/logs/mongo-build.log" >&2; die "javac of stack/mongo/*.java failed"; }
  rm -rf "$MONGO_DIR/lib" "$MONGO_DIR/classes"
  mv "$MONGO_DIR/lib.tmp" "$MONGO_DIR/lib"
  mv "$MONGO_DIR/classes.tmp" "$MONGO_DIR/classes"
  printf '%s\n' "$key" >"$MONGO_DIR/build.key"
  log "ready in $((SECONDS - t0))s"
}

# stop_mongo: SIGTERM (the server commits its MVStore file), SIGKILL after 30 s as stack/stop.sh does.
stop_mongo() {
  local pid deadline
  pid="$(pid_of "$MONGO_PIDFILE")"
  kill -TERM "$pid" 2>/dev/null || true
  deadline=$((SECONDS + 30))
  while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.5; done
  if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; sleep 0.5; fi
  rm -f "$MONGO_PIDFILE" "$MONGO_KEYFILE"
}

mongo_fail() {
  log "--- last lines of $MONGO_LOG ---"
  tail -n 40 "$MONGO_LOG" >&2 2>/dev/null || true
  die "the Mongo-wire server did not start (see above; 'bash stack/stop.sh' cleans up)"
}

start_mongo() {
  if [[ -n "${MONGO_URL:-}" ]]; then
    log "MONGO_URL is set: using the MongoDB server at $MONGO_URL"
    local out
    out="$(mongo_ping "$MONGO_URL")" || die "MongoDB at MONGO_URL=$MONGO_URL does not answer: $out"
    log "$out"
    return 0
  fi
  MONGO_URL="$LOCAL_MONGO_URL"

  local java_home
  if mongo_running && tcp_open 127.0.0.1 "$MONGO_PORT"; then
    java_home="$(jdk_home)"
    build_mongo "$java_home"
    if [[ "$(cat "$MONGO_KEYFILE" 2>/dev/null)" == "$(cat "$MONGO_DIR/build.key")" ]]; then
      log "Mongo-wire server already running (pid $(pid_of "$MONGO_PIDFILE")) at $MONGO_URL"
      return 0
    fi
    # started from another build of stack/mongo (a driver may refuse its handshake): replace it
    log "Mongo-wire server (pid $(pid_of "$MONGO_PIDFILE")) runs an older build of stack/mongo: restarting it"
    stop_mongo
  elif mongo_running; then
    # alive but not answering: a leftover from a broken start; replace it
    log "Mongo-wire server (pid $(pid_of "$MONGO_PIDFILE")) does not answer on $MONGO_PORT: restarting it"
    stop_mongo
  fi
  claim_port "$MONGO_PIDFILE" "$MONGO_PORT" MONGO "mongodb://127.0.0.1:$MONGO_PORT/"
  java_home="$(jdk_home)"
  build_mongo "$java_home"

  mkdir -p "$MONGO_DATA"
  local t0=$SECONDS pid deadline
  # setsid + nohup: the server outlives this script and is not hit by a Ctrl-C
  # or hangup meant for the terminal that ran it. Serial GC: the smallest idle cost. Half the heap
  # young, from the start: each query builds its whole answer as short-lived objects, and a small
  # young generation copied and promoted them (GC was 15 of the 36 s of CPU a rebuild's read of
  # 100,000 homes cost; 5 s of 25 s with these flags, docs/performance.md).
  setsid nohup "$java_home/bin/java" "-Xms$MONGO_HEAP" "-Xmx$MONGO_HEAP" -XX:NewRatio=1 -XX:+UseSerialGC \
    -cp "$MONGO_DIR/lib/*:$MONGO_DIR/classes" "$MONGO_MAIN" \
    127.0.0.1 "$MONGO_PORT" "$MONGO_DATA/catalog.mv.db" "$MONGO_CACHE_MB" \
    >>"$MONGO_LOG" 2>&1 </dev/null 9>&- &
  pid=$!
  printf '%s\n' "$pid" >"$MONGO_PIDFILE"
  cp "$MONGO_DIR/build.key" "$MONGO_KEYFILE"

  deadline=$((SECONDS + MONGO_TIMEOUT))
  until tcp_open 127.0.0.1 "$MONGO_PORT"; do
    mongo_running || mongo_fail
    ((SECONDS < deadline)) || mongo_fail
    sleep 0.2
  done
  local out=""
  until out="$(mongo_ping "$MONGO_URL")"; do
    ((SECONDS < deadline)) || { log "$out"; mongo_fail; }
    sleep 0.5
  done
  log "Mongo-wire server up in $((SECONDS - t0))s (pid $pid) at $MONGO_URL: $out"
}

# ---- main -----------------------------------------------------------------------

GIVEN_URLS="${ES_URL:-}${MONGO_URL:-}"

start_es
start_mongo

# stack.env describes this cache's own servers: not written when either was given from outside
# (a test's extra cluster, say, checks the stack's MongoDB and must not overwrite it).
if [[ -n "$GIVEN_URLS" ]]; then
  printf 'ES_URL=%s\nMONGO_URL=%s\n' "$ES_URL" "$MONGO_URL"
else
  printf 'ES_URL=%s\nMONGO_URL=%s\n' "$ES_URL" "$MONGO_URL" | tee "$CACHE_DIR/stack.env"
fi
