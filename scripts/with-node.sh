#!/usr/bin/env bash
# Runs one command (`bash scripts/with-node.sh CMD ARGS…`) on Node 24, installed into .tools/ first where `node` is older.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/ensure-node.sh"
exec "$@"
