#!/usr/bin/env bash
# Show the state of the local stack.
#
#   bash stack/status.sh          # or: npm run stack:status
#
# Exit 0 when both Elasticsearch and the MongoDB-wire server answer, 3 when
# either does not (3, like `service status`, means "not running").
# ES_URL / MONGO_URL set in the environment are checked instead of the local
# servers, as start.sh would use them.
#
#   bash stack/status.sh --pids   # ES_PID=… MONGO_PID=… of the local servers (empty when not running),
#                                 # for tests that freeze a store (SIGSTOP) to check the deadlines;
#                                 # ES_PIDS=… one per node of the configuration (STACK_ES_NODES), in order
set -euo pipefail

# shellcheck source=SCRIPTDIR/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

if [[ "${1:-}" == "--pids" ]]; then
  es_pid=""; mongo_pid=""
  es_pids=""
  es_running && es_pid="$(pid_of "$(es_pidfile)")"
  sep=""
  for ((i = 1; i <= ES_NODES; i++)); do
    p=""; es_running "$i" && p="$(pid_of "$(es_pidfile "$i")")"
    es_pids+="$sep$p"; sep=","
  done
  mongo_running && mongo_pid="$(pid_of "$MONGO_PIDFILE")"
  printf 'ES_PID=%s\nES_PIDS=%s\nES_URL=%s\nMONGO_PID=%s\nMONGO_URL=%s\n' "$es_pid" "$es_pids" "$LOCAL_ES_URL" "$mongo_pid" "$LOCAL_MONGO_URL"
  exit 0
fi

up=0

# ---- Elasticsearch
if [[ -n "${ES_URL:-}" ]]; then
  es_url="$ES_URL"; es_where="external (ES_URL)"
else
  es_url="$LOCAL_ES_URL"
  if ((ES_NODES > 1)); then
    es_where="local cluster of $ES_NODES nodes, pids $(for ((i = 1; i <= ES_NODES; i++)); do es_running "$i" && printf '%s ' "$(pid_of "$(es_pidfile "$i")")" || printf 'down '; done)"
  elif es_running; then
    es_where="local, pid $(pid_of "$(es_pidfile)"), home $(es_home)"
  elif [[ -e "$(es_pidfile)" ]]; then
    es_where="local, stale pidfile $(es_pidfile)"
  else
    es_where="local, no process"
  fi
fi
health="$(es_health "$es_url")"
if [[ -n "$health" ]]; then
  echo "elasticsearch: running  $es_url  health=$health version=$(es_version "$es_url")  [$es_where]"
  up=$((up + 1))
else
  echo "elasticsearch: stopped  $es_url  (no answer)  [$es_where]"
fi

# ---- MongoDB wire (mongo-java-server)
if [[ -n "${MONGO_URL:-}" ]]; then
  mongo_url="$MONGO_URL"; mongo_where="external (MONGO_URL)"
else
  mongo_url="$LOCAL_MONGO_URL"
  if mongo_running; then
    mongo_where="local mongo-java-server, pid $(pid_of "$MONGO_PIDFILE"), data $MONGO_DATA"
  elif [[ -e "$MONGO_PIDFILE" ]]; then
    mongo_where="local mongo-java-server, stale pidfile $MONGO_PIDFILE"
  else
    mongo_where="local mongo-java-server, no process"
  fi
fi
if ping_out="$(mongo_ping "$mongo_url" 2>&1)"; then
  echo "mongodb:       running  $mongo_url  $ping_out  [$mongo_where]"
  up=$((up + 1))
else
  echo "mongodb:       stopped  $mongo_url  (no answer)  [$mongo_where]"
fi

((up == 2)) && exit 0
exit 3
