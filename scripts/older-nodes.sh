#!/usr/bin/env bash
# The Node.js releases older than the project's engines (>=22.15.0) that a newcomer may still have, each with
# the npm it ships with, for the older-Node test (test/integration/scripts/check-node.test.ts): Node 18, 20
# and 21 (npm 10.8 / 10.5, which know nothing of devEngines) and 22.14 (npm 10.9). Installs each from the npm
# registry into ${XDG_CACHE_HOME:-~/.cache}/toolhooks with scripts/install-node.sh and scripts/install-npm.sh
# (skipped when present; about 10 s a release the first time, then nothing) and prints one tab-separated line
# per pair: Node version, its bin folder, npm version, a folder holding that npm.
#
#   bash scripts/older-nodes.sh            install what is missing (.ci/run does, before the tests)
#   bash scripts/older-nodes.sh --cached   download nothing: a pair not installed yet has "-" for its folders
set -euo pipefail
cd "$(dirname "$0")"
PAIRS=(
  "18.20.8 10.8.2"
  "20.20.2 10.8.2"
  "21.7.3 10.5.0"
  "22.14.0 10.9.2"
)
cache="${XDG_CACHE_HOME:-$HOME/.cache}/toolhooks"
for pair in "${PAIRS[@]}"; do
  read -r node npm <<<"$pair"
  if [ "${1:-}" = --cached ]; then
    node_bin="$cache/node-$node/bin" npm_dir="$cache/npm-$npm/path"
    [ -x "$node_bin/node" ] || node_bin=-
    [ -x "$npm_dir/npm" ] || npm_dir=-
  else
    node_bin="$(bash install-node.sh "$node")"
    npm_dir="$(bash install-npm.sh "$npm")"
  fi
  printf '%s\t%s\t%s\t%s\n' "$node" "$node_bin" "$npm" "$npm_dir"
done
