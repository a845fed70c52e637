#!/usr/bin/env bash
# Builds the OpenTelemetry Collector the toolhooks pipeline runs (gateway and sampler tiers, and the compose
# file's single collector) from deploy/otelcol-builder.yaml with the OpenTelemetry Collector Builder, into a
# cache keyed by its version:
#   ${XDG_CACHE_HOME:-~/.cache}/toolhooks/otelcol-v0.161.0/otelcol
# The system tests look for it there (or at $OTELCOL_BIN). Needs Go (1.24 or later) and the Go module proxy;
# takes 5 to 15 minutes on 2 cores once, then nothing: a binary built from the same manifest is reused.
# A changed manifest (same version, other components) is rebuilt.
#
#   bash scripts/build-otelcol.sh          build if needed, print the binary's path last
#
# A manifest the builder refuses (an unknown module, a typo) fails this script with the builder's message;
# nothing is left behind that looks like a finished binary.
set -euo pipefail

# Bump together with every v0.161.0 in deploy/otelcol-builder.yaml and the image in docker-compose.yml.
OTELCOL_VERSION=v0.161.0
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
MANIFEST="$ROOT/deploy/otelcol-builder.yaml"
DIR="${XDG_CACHE_HOME:-$HOME/.cache}/toolhooks/otelcol-$OTELCOL_VERSION"
BIN="$DIR/otelcol"

if ! grep -q "^  version: ${OTELCOL_VERSION#v}\$" "$MANIFEST"; then
  echo "build-otelcol: $MANIFEST does not say dist.version ${OTELCOL_VERSION#v}; bump both together" >&2
  exit 1
fi

if [ -x "$BIN" ] && cmp -s "$MANIFEST" "$DIR/manifest.yaml"; then
  echo "build-otelcol: collector already built: $BIN"
  echo "$BIN"
  exit 0
fi
if [ -x "$BIN" ]; then
  echo "build-otelcol: $MANIFEST changed since $BIN was built; rebuilding"
fi

if ! command -v go >/dev/null 2>&1; then
  echo "build-otelcol: need Go (1.24 or later) to build the collector $OTELCOL_VERSION into $DIR;" \
    "install it from https://go.dev/dl/ and run this script again" >&2
  exit 1
fi

mkdir -p "$DIR"
WORK="$(mktemp -d "$DIR/build.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
cp "$MANIFEST" "$WORK/manifest.yaml"
started=$SECONDS
echo "build-otelcol: building the collector $OTELCOL_VERSION from $MANIFEST into $DIR (5 to 15 minutes on 2 cores, once)"
(cd "$WORK" && go run "go.opentelemetry.io/collector/cmd/builder@$OTELCOL_VERSION" --config=manifest.yaml)
# Install under a temporary name and rename: an interrupted run never leaves a binary that looks finished.
cp "$WORK/dist/otelcol" "$BIN.partial"
mv -f "$BIN.partial" "$BIN"
cp "$WORK/manifest.yaml" "$DIR/manifest.yaml"
echo "build-otelcol: built $BIN in $((SECONDS - started)) s ($(du -h "$BIN" | cut -f1))"
echo "$BIN"
