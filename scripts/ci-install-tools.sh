#!/usr/bin/env bash
# Installs the real programs the deployment and system tests run:
#   - promtool/prometheus (Debian package `prometheus`), docker-compose (Debian package `docker-compose`) and
#     tmux (the terminal approver's pseudo-terminal test), redis-server (the limits' Redis store test: the
#     test starts its own server on a free port; the package's daemon is never started),
#     for CI machines with apt-get where we are root or have passwordless sudo; anywhere else it says what to
#     do and fails without touching the system;
#   - Jaeger v2, built from source with Go (Jaeger publishes no Debian package) into a cache keyed by its
#     version: ${XDG_CACHE_HOME:-~/.cache}/toolhooks/jaeger-v1.76.0/jaeger. The tests look for it there (or
#     at $JAEGER_BIN). Needs Go and the Go module proxy; takes minutes once, then nothing.
#   - the OpenTelemetry Collector of the two-tier pipeline (gateway and samplers), built with the Collector
#     Builder from deploy/otelcol-builder.yaml by scripts/build-otelcol.sh into
#     ${XDG_CACHE_HOME:-~/.cache}/toolhooks/otelcol-v0.161.0/otelcol (or $OTELCOL_BIN for the tests).
#   - the OPA CLI (`opa`), built with `go install` from the Go module proxy into
#     ${XDG_CACHE_HOME:-~/.cache}/toolhooks/opa-v1.22.4/opa (or $OPA_BIN for the tests): the policy tests run
#     `opa run --server` and compile their Rego fixtures with `opa build -t wasm` at test time.
#   - otlpjson-check (test/system/traces-file/otlpjson-check/), a small Go program that decodes a traces file
#     line by line with the Collector's OTLP/JSON decoder (pdata), the one its otlpjsonfile receiver runs on
#     each line; built with the pdata release of the collector above into
#     ${XDG_CACHE_HOME:-~/.cache}/toolhooks/otlpjson-check-pdata-v1.67.0/otlpjson-check (or $OTLPJSON_CHECK_BIN
#     for the tests). About a minute on 2 cores once, rebuilt only when its source changes.
# Does nothing for a program that is already there. `bash scripts/ci-install-tools.sh jaeger` builds only
# Jaeger, `... otelcol` only the collector, `... opa` only OPA, `... otlpjson-check` only that program.
#
# The Debian prometheus package would normally start a daemon on :9090 from its maintainer scripts.
# In a container without systemd that either fails the install or leaves a stray process; on a VM with
# systemd it leaves a service the tests do not want. So service starts are refused while installing
# (policy-rc.d, which invoke-rc.d and deb-systemd-invoke both honour), and anything that started
# anyway is stopped and disabled afterwards.
set -euo pipefail

PACKAGES=(prometheus docker-compose tmux redis-server)

have_all() {
  command -v promtool >/dev/null 2>&1 && command -v prometheus >/dev/null 2>&1 &&
    command -v docker-compose >/dev/null 2>&1 && command -v tmux >/dev/null 2>&1 &&
    command -v redis-server >/dev/null 2>&1
}

install_debian_packages() {
  if have_all; then
    echo "ci-install-tools: prometheus, promtool, docker-compose, tmux and redis-server already installed"
    return 0
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
    return 1
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
  # The same for redis-server's daemon (port 6379).
  if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
    as_root systemctl disable --now prometheus.service >/dev/null 2>&1 || true
    as_root systemctl disable --now redis-server.service >/dev/null 2>&1 || true
  else
    if [ -x /etc/init.d/prometheus ]; then as_root /etc/init.d/prometheus stop >/dev/null 2>&1 || true; fi
    if [ -x /etc/init.d/redis-server ]; then as_root /etc/init.d/redis-server stop >/dev/null 2>&1 || true; fi
  fi

  promtool --version | head -n 1
  prometheus --version | head -n 1
  docker-compose version --short
  redis-server --version
}

# Jaeger v2. Module v1.76.0 is Jaeger 2.13.0, the version docker-compose.yml pins
# (jaegertracing/jaeger:2.13.0): bump both together. `go install ...@v1.76.0` does not work: Jaeger's go.mod
# has a replace directive, which `go install pkg@version` refuses. So the module is downloaded into the Go
# module cache and built from there, with -mod=mod so that Go may resolve what the replace leaves open.
JAEGER_MODULE=github.com/jaegertracing/jaeger
JAEGER_MODULE_VERSION=v1.76.0
JAEGER_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/toolhooks/jaeger-$JAEGER_MODULE_VERSION"

# Whether a tool built with Go still has to be built: not when its binary is there (said so); when it has
# to be and Go is missing, this names what to install and stops the script.
needs_go_build() {
  local name=$1 bin=$2 dir=$3 go_needed=$4
  if [ -x "$bin" ]; then
    echo "ci-install-tools: $name already built: $bin"
    return 1
  fi
  if ! command -v go >/dev/null 2>&1; then
    echo "ci-install-tools: need Go ($go_needed) to build $name into $dir;" \
      "install it from https://go.dev/dl/ and run this script again" >&2
    exit 1
  fi
}

build_jaeger() {
  local bin="$JAEGER_DIR/jaeger"
  needs_go_build "Jaeger $JAEGER_MODULE_VERSION" "$bin" "$JAEGER_DIR" "1.24.6 or later" || return 0
  mkdir -p "$JAEGER_DIR"
  local started=$SECONDS
  echo "ci-install-tools: building Jaeger ($JAEGER_MODULE@$JAEGER_MODULE_VERSION) into $JAEGER_DIR (3 to 10 minutes on 2 cores, once)"
  go mod download "$JAEGER_MODULE@$JAEGER_MODULE_VERSION"
  local src
  src="$(go env GOMODCACHE)/$JAEGER_MODULE@$JAEGER_MODULE_VERSION"
  # Build to a temporary name and rename: an interrupted build never leaves a binary that looks finished.
  (cd "$src" && GOFLAGS=-mod=mod go build -trimpath -o "$bin.partial" ./cmd/jaeger)
  mv -f "$bin.partial" "$bin"
  echo "ci-install-tools: built $bin in $((SECONDS - started)) s ($(du -h "$bin" | cut -f1))"
}

build_otelcol() {
  bash "$(dirname "$0")/build-otelcol.sh"
}

# OPA: the newest v1.22 release the Go module proxy serves (`go list -m -versions
# github.com/open-policy-agent/opa`). Its go.mod has no replace directive, so `go install pkg@version` works;
# GOBIN puts the binary in the versioned cache directory.
OPA_MODULE=github.com/open-policy-agent/opa
OPA_VERSION=v1.22.4
OPA_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/toolhooks/opa-$OPA_VERSION"

build_opa() {
  local bin="$OPA_DIR/opa"
  needs_go_build "OPA $OPA_VERSION" "$bin" "$OPA_DIR" "1.26 or later" || return 0
  local started=$SECONDS
  echo "ci-install-tools: building OPA ($OPA_MODULE@$OPA_VERSION) into $OPA_DIR (minutes on 2 cores, once)"
  # Install into a temporary directory and rename: an interrupted build never leaves a binary that looks
  # finished.
  local tmp="$OPA_DIR.partial"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  GOBIN="$tmp" go install -trimpath "$OPA_MODULE@$OPA_VERSION"
  mkdir -p "$OPA_DIR"
  mv -f "$tmp/opa" "$bin"
  rm -rf "$tmp"
  echo "ci-install-tools: built $bin in $((SECONDS - started)) s ($("$bin" version | head -n 1))"
}

# otlpjson-check: its go.mod pins go.opentelemetry.io/collector/pdata at the release the collector
# v0.161.0 (scripts/build-otelcol.sh) is built with; bump both together. The cache folder names that version;
# a copy of the source beside the binary tells whether the source changed since it was built.
OTLPJSON_CHECK_PDATA=v1.67.0
OTLPJSON_CHECK_SRC="$(cd "$(dirname "$0")/.." && pwd)/test/system/traces-file/otlpjson-check"
OTLPJSON_CHECK_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/toolhooks/otlpjson-check-pdata-$OTLPJSON_CHECK_PDATA"

build_otlpjson_check() {
  local bin="$OTLPJSON_CHECK_DIR/otlpjson-check"
  if ! grep -q "go.opentelemetry.io/collector/pdata $OTLPJSON_CHECK_PDATA\$" "$OTLPJSON_CHECK_SRC/go.mod"; then
    echo "ci-install-tools: $OTLPJSON_CHECK_SRC/go.mod does not require pdata $OTLPJSON_CHECK_PDATA; bump both together" >&2
    return 1
  fi
  # A binary built from other source is rebuilt.
  diff -rq "$OTLPJSON_CHECK_SRC" "$OTLPJSON_CHECK_DIR/src" >/dev/null 2>&1 || rm -f "$bin"
  needs_go_build otlpjson-check "$bin" "$OTLPJSON_CHECK_DIR" "1.26 or later" || return 0
  mkdir -p "$OTLPJSON_CHECK_DIR"
  local started=$SECONDS
  echo "ci-install-tools: building otlpjson-check (pdata $OTLPJSON_CHECK_PDATA) into $OTLPJSON_CHECK_DIR (about a minute on 2 cores, once)"
  # Build to a temporary name and rename: an interrupted build never leaves a binary that looks finished.
  (cd "$OTLPJSON_CHECK_SRC" && go build -trimpath -o "$bin.partial" .)
  rm -rf "$OTLPJSON_CHECK_DIR/src"
  cp -r "$OTLPJSON_CHECK_SRC" "$OTLPJSON_CHECK_DIR/src"
  mv -f "$bin.partial" "$bin"
  echo "ci-install-tools: built $bin in $((SECONDS - started)) s"
}

# `ci-install-tools.sh jaeger` builds only Jaeger, `otelcol` only the collector, `opa` only OPA, `otlpjson-check`
# only that program (no root needed for any of them); no argument installs everything.
case "${1:-all}" in
  jaeger) build_jaeger ;;
  otelcol) build_otelcol ;;
  opa) build_opa ;;
  otlpjson-check) build_otlpjson_check ;;
  all)
    build_jaeger
    build_otelcol
    build_opa
    build_otlpjson_check
    install_debian_packages
    ;;
  *)
    echo "usage: $0 [jaeger|otelcol|opa|otlpjson-check]   (no argument: all of them, and prometheus, promtool, docker-compose, tmux, redis-server)" >&2
    exit 2
    ;;
esac
