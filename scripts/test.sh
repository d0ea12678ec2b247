#!/usr/bin/env bash
# `npm test`: every check, in lanes that run side by side (scripts/lanes.sh). With --ci, the API
# lane then runs the suite again on PostgreSQL + Redis, every request through Prism's validation proxy.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
bash scripts/ensure-redis.sh
bash scripts/ensure-nginx.sh
echo "Node $(node -v)"
# The browser stories are the longest step: they get a lane to themselves; the static checks go first in the other.
lanes=(
  "npm run test:e2e"
  "npm run typecheck && npm run lint && npm run check:deps && npm run check:docs && npm run check:unused && npm run format:check && npm run build:desktop && npm run test:api"
)
if [ "${1:-}" = --ci ]; then
  lanes[1]+=" && DATABASE_URL=${CI_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test} REDIS_URL=${CI_REDIS_URL:-redis://127.0.0.1:6379} npm run test:api:prism"
fi
exec bash scripts/lanes.sh "${lanes[@]}"
