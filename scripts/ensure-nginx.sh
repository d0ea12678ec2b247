#!/usr/bin/env bash
# `npm run cluster`, `npm run cluster-chaos` and scripts/nginx.test.ts put Debian's nginx in front of
# the API processes (they run it themselves, never the system's nginx service). Run as root, this installs it with
# apt-get; otherwise it stops at once with the command to run.
set -euo pipefail
nginx="${NGINX_PATH:-/usr/sbin/nginx}"
[ -x "$nginx" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing nginx (apt-get install -y nginx)…"
  apt-get update -qq
  # policy-rc.d 101: the package's own service is not started; the cluster runs nginx itself.
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
    trap 'rm -f /usr/sbin/policy-rc.d' EXIT
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
  exit 0
fi
echo "The cluster and scripts/nginx.test.ts need nginx at $nginx. Install it with:" >&2
echo "  sudo apt-get update && sudo apt-get install -y nginx" >&2
echo "(or set NGINX_PATH to an nginx binary)" >&2
exit 1
