# Makes `node` the Node 24 LTS the project is developed and tested on. Sourced by scripts/with-node.sh (every
# `npm run` script goes through it), by `.ci/run` and by a shell (`source scripts/ensure-node.sh`); run by
# `npm install` (preinstall) so a fresh clone has it at once. A machine whose Node is 24 or newer is left alone;
# an older one gets Node 24 from the npm registry's `node` package, installed once into .tools/, put first on
# PATH with its headers as npm_config_nodedir (a native module built from source builds against them).
# The native modules installed (better-sqlite3, argon2) are Node-API prebuilds: they load in any Node, no rebuild.
_giftlink_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_giftlink_node_version="24.21.0"
_giftlink_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$_giftlink_major" -lt 24 ]; then
  _giftlink_tools="$_giftlink_root/.tools/node-$_giftlink_node_version"
  if [ ! -x "$_giftlink_tools/node_modules/.bin/node" ]; then
    echo "Node $(node -v 2>/dev/null || echo '(none)') is older than the project's: installing Node $_giftlink_node_version into .tools/ (npm's node package); every npm run script uses it." >&2
    # Installed aside and moved into place: a second process starting meanwhile never sees half a Node.
    _giftlink_partial="$_giftlink_tools.partial.$$"
    mkdir -p "$_giftlink_partial"
    echo '{"private":true}' >"$_giftlink_partial/package.json"
    if npm install --prefix "$_giftlink_partial" --no-audit --no-fund --loglevel=error "node@$_giftlink_node_version" >/dev/null; then
      mv -T "$_giftlink_partial" "$_giftlink_tools" 2>/dev/null || rm -rf "$_giftlink_partial"
    else
      rm -rf "$_giftlink_partial"
      echo "Could not install Node $_giftlink_node_version from the npm registry: install Node 24 (https://nodejs.org) and run again." >&2
      return 1 2>/dev/null || exit 1
    fi
  fi
  export PATH="$_giftlink_tools/node_modules/.bin:$PATH"
  for _giftlink_headers in "$_giftlink_tools"/node_modules/node/node_modules/node-*-*/; do export npm_config_nodedir="${_giftlink_headers%/}"; done
fi
unset _giftlink_root _giftlink_node_version _giftlink_major _giftlink_tools _giftlink_headers _giftlink_partial
