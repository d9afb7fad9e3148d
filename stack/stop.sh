#!/usr/bin/env bash
# Stop the local stack started by stack/start.sh (Elasticsearch and the Mongo-wire server).
#
#   bash stack/stop.sh            # or: npm run stack:stop
#   bash stack/stop.sh es         # only Elasticsearch: the nodes of the configuration in the
#                                 # environment (STACK_ES_NODES, ES_PORT), e.g. a test's cluster,
#                                 # all at once
#
# Idempotent: a server that is not running is skipped. Each server gets
# SIGTERM (both shut down cleanly on it), then SIGKILL if it is still there
# after a grace period. Only processes named in our pidfiles are touched, and
# only if their command line is the expected one (a recycled pid is left alone).
# Data in the cache folder is kept; delete the folder to start from nothing.
set -euo pipefail

# shellcheck source=SCRIPTDIR/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# stop_one NAME PIDFILE NEEDLE GRACE_SECONDS
stop_one() {
  local name="$1" pidfile="$2" needle="$3" grace="$4" pid deadline
  if ! pid_alive "$pidfile" "$needle"; then
    if [[ -e "$pidfile" ]]; then
      log "$name: not running (removing stale pidfile $pidfile)"
      rm -f "$pidfile"
    else
      log "$name: not running"
    fi
    return 0
  fi
  pid="$(pid_of "$pidfile")"
  log "$name: stopping pid $pid"
  kill -TERM "$pid" 2>/dev/null || true
  deadline=$((SECONDS + grace))
  while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do
    sleep 0.5
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "$name: still running after ${grace}s, sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    sleep 0.5
  fi
  rm -f "$pidfile"
  log "$name: stopped"
}

# ES writes its own pidfile and removes it on a clean exit; the rm above
# covers the SIGKILL case. 60 s: ES flushes shards on shutdown.
# The nodes stop together: each one's shutdown does not wait on the others'.
if [[ "${1:-}" == es ]]; then
  for ((i = 1; i <= ES_NODES; i++)); do stop_one "Elasticsearch node $i" "$(es_pidfile "$i")" "org.elasticsearch" 60 & done
  wait
  exit 0
fi
# Everything this cache started: the single node and every cluster's nodes, whatever the environment says.
stop_one "Elasticsearch" "$(ES_NODES=1 es_pidfile)" "org.elasticsearch" 60
shopt -s nullglob
for pidfile in "$(es_base_dir)"/cluster-*/node-*/es.pid; do
  stop_one "Elasticsearch $(basename "$(dirname "$(dirname "$pidfile")")")/$(basename "$(dirname "$pidfile")")" "$pidfile" "org.elasticsearch" 60
done
# 30 s: the Mongo-wire server commits its MVStore file on SIGTERM.
stop_one "Mongo-wire server" "$MONGO_PIDFILE" "$MONGO_MAIN" 30
