#!/usr/bin/env bash
# The bar for a quiet install: `npm ci` on Node 24, then the website's and the desktop's builds, must print no engine
# warning, no install-script notice, no peer-dependency override and no Vite configuration warning. Counts each; fails on any.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/ensure-node.sh
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
start=$SECONDS
npm ci --no-audit --no-fund --loglevel=warn 2>&1 | tee -a "$log"
echo "npm ci on Node $(node -v): $((SECONDS - start)) s"
npm run build:web 2>&1 | tee -a "$log" >/dev/null
npm run build:desktop 2>&1 | tee -a "$log" >/dev/null
count() { grep -c -E "$1" "$log" || true; }
engine=$(count 'EBADENGINE')
scripts=$(count 'install-scripts')
peers=$(count 'ERESOLVE')
vite=$(count "configLoader|VITE_CONFIG_NATIVE_IGNORE_WARNING|Your Vite config")
echo "EBADENGINE lines: $engine · install-scripts lines: $scripts · ERESOLVE lines: $peers · Vite configuration warnings: $vite"
if [ $((engine + scripts + peers + vite)) -gt 0 ]; then
  grep -E "EBADENGINE|install-scripts|ERESOLVE|configLoader|VITE_CONFIG_NATIVE_IGNORE_WARNING|Your Vite config" "$log" >&2
  exit 1
fi
echo "quiet install: nothing alarming"
