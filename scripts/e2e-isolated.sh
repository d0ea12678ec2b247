#!/usr/bin/env bash
# Builds the site and the server into .tmp/e2e-<name> and runs the given browser stories against that
# build, so several people (or helpers) can run stories at once without sharing dist/.
#   bash scripts/e2e-isolated.sh <name> e2e/some.e2e.ts [more files or vitest flags]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-node.sh
bash scripts/ensure-chromium.sh
name=$1
shift
out="$PWD/.tmp/e2e-$name"
npx vite build --config renderer/vite.config.ts --outDir "$out/web" --emptyOutDir --logLevel warn
npx tsc -p tsconfig.server.json --outDir "$out/server"
E2E_DIST="$out" npx vitest run --config e2e/vitest.config.ts "$@"
