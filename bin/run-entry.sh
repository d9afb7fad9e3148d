#!/bin/sh
# Runs one of the project's entry points (services/main, indexer/worker, ...): the compiled
# JavaScript under dist/ when NODE_ENV=production (the container image has nothing else), else the
# TypeScript source through tsx (development). Usage: bin/run-entry.sh services/main [args...]
set -e
entry="$1"
shift
here="$(cd "$(dirname "$0")/.." && pwd)"
if [ "$NODE_ENV" = "production" ]; then
  if [ ! -f "$here/dist/$entry.js" ]; then
    echo "run-entry: $here/dist/$entry.js is missing: run 'npm run build' first (NODE_ENV=production runs compiled code)" >&2
    exit 1
  fi
  exec node "$here/dist/$entry.js" "$@"
fi
exec "$here/node_modules/.bin/tsx" "$here/$entry.ts" "$@"
