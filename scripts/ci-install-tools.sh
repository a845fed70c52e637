#!/usr/bin/env bash
# Installs the real programs the deployment tests run: promtool/prometheus (Debian package `prometheus`)
# and docker-compose (Debian package `docker-compose`). Meant for CI images where we are root and have
# apt-get; anywhere else it says what to do and exits without touching the system.
#
# The Debian prometheus package would normally start a daemon on :9090 from its maintainer scripts.
# In a container without systemd that either fails the install or leaves a stray process; on a VM with
# systemd it leaves a service the tests do not want. So service starts are refused while installing
# (policy-rc.d, which invoke-rc.d and deb-systemd-invoke both honour), and anything that started
# anyway is stopped and disabled afterwards.
set -euo pipefail

PACKAGES=(prometheus docker-compose)

have_all() {
  command -v promtool >/dev/null 2>&1 && command -v prometheus >/dev/null 2>&1 &&
    command -v docker-compose >/dev/null 2>&1
}

if have_all; then
  echo "ci-install-tools: prometheus, promtool and docker-compose already installed"
  exit 0
fi

if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "ci-install-tools: need root and apt-get to install ${PACKAGES[*]};" \
    "run: sudo apt-get install ${PACKAGES[*]}" >&2
  exit 1
fi

POLICY=/usr/sbin/policy-rc.d
ADDED_POLICY=0
if [ ! -e "$POLICY" ]; then
  printf '#!/bin/sh\n# Temporary, written by scripts/ci-install-tools.sh: no service starts during install.\nexit 101\n' >"$POLICY"
  chmod 0755 "$POLICY"
  ADDED_POLICY=1
fi
cleanup() {
  if [ "$ADDED_POLICY" -eq 1 ]; then rm -f "$POLICY"; fi
}
trap cleanup EXIT

export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends "${PACKAGES[@]}"

# Belt and braces: if a service manager started the daemon regardless, stop it and keep it off so that
# port 9090 stays free for the compose stack and the tests' own Prometheus.
if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
  systemctl disable --now prometheus.service >/dev/null 2>&1 || true
elif [ -x /etc/init.d/prometheus ]; then
  /etc/init.d/prometheus stop >/dev/null 2>&1 || true
fi

promtool --version | head -n 1
prometheus --version | head -n 1
docker-compose version --short
