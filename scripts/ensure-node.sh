# Sourced (`source scripts/ensure-node.sh`, or through scripts/with-node.sh by `npm start` and `npm test`) and by
# `.ci/run`: makes `node` the Node 24 LTS the project is developed and tested on. A machine whose Node is 24 or newer
# is left alone; an older one gets Node 24 from the npm registry's `node` package, installed once into .tools/,
# put first on PATH with its headers as npm_config_nodedir (a native module built from source builds against them).
# The native modules installed (better-sqlite3, argon2) are Node-API prebuilds: they load in any Node, no rebuild.
_giftlink_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_giftlink_node_version="24.21.0"
_giftlink_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$_giftlink_major" -lt 24 ]; then
  _giftlink_tools="$_giftlink_root/.tools/node-$_giftlink_node_version"
  if [ ! -x "$_giftlink_tools/node_modules/.bin/node" ]; then
    echo "Node $(node -v 2>/dev/null || echo '(none)') is older than the project needs: installing Node $_giftlink_node_version into .tools/ (npm's node package)…" >&2
    mkdir -p "$_giftlink_tools"
    echo '{"private":true}' >"$_giftlink_tools/package.json"
    npm install --prefix "$_giftlink_tools" --no-audit --no-fund --loglevel=error "node@$_giftlink_node_version" >/dev/null
  fi
  export PATH="$_giftlink_tools/node_modules/.bin:$PATH"
  for _giftlink_headers in "$_giftlink_tools"/node_modules/node/node_modules/node-*-*/; do export npm_config_nodedir="${_giftlink_headers%/}"; done
fi
unset _giftlink_root _giftlink_node_version _giftlink_major _giftlink_tools _giftlink_headers
