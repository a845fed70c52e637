#!/usr/bin/env bash
# Installs the real programs the deployment tests run: promtool/prometheus (Debian package `prometheus`)
# and docker-compose (Debian package `docker-compose`). Meant for CI machines with apt-get where we are
# root or have passwordless sudo; anywhere else it says what to do and exits without touching the system.
# Does nothing when the programs are already there.
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

# Root, or passwordless sudo (hosted CI runners); never a password prompt in a non-interactive run.
AS_ROOT=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    AS_ROOT=(sudo -n)
  else
    AS_ROOT=(false)
  fi
fi
if [ "${AS_ROOT[0]:-}" = false ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "ci-install-tools: need root (or passwordless sudo) and apt-get to install ${PACKAGES[*]};" \
    "install them yourself: sudo apt-get install ${PACKAGES[*]}" >&2
  exit 1
fi
as_root() { "${AS_ROOT[@]}" "$@"; }

POLICY=/usr/sbin/policy-rc.d
ADDED_POLICY=0
if [ ! -e "$POLICY" ]; then
  printf '#!/bin/sh\n# Temporary, written by scripts/ci-install-tools.sh: no service starts during install.\nexit 101\n' |
    as_root tee "$POLICY" >/dev/null
  as_root chmod 0755 "$POLICY"
  ADDED_POLICY=1
fi
cleanup() {
  if [ "$ADDED_POLICY" -eq 1 ]; then as_root rm -f "$POLICY"; fi
}
trap cleanup EXIT

as_root env DEBIAN_FRONTEND=noninteractive apt-get update
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${PACKAGES[@]}"

# Belt and braces: if a service manager started the daemon regardless, stop it and keep it off so that
# port 9090 stays free for the compose stack and the tests' own Prometheus.
if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
  as_root systemctl disable --now prometheus.service >/dev/null 2>&1 || true
elif [ -x /etc/init.d/prometheus ]; then
  as_root /etc/init.d/prometheus stop >/dev/null 2>&1 || true
fi

promtool --version | head -n 1
prometheus --version | head -n 1
docker-compose version --short
