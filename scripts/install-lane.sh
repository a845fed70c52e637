#!/usr/bin/env bash
# Installs a test lane's packages (test/<lane>/package.json) into test/<lane>/node_modules from its lock
# file, apart from the main project. Skipped when they are installed already from the same lock file, so
# `npm test` pays for it once. Usage: bash scripts/install-lane.sh <lane>  (sdk2, strands)
set -euo pipefail
lane="${1:?usage: install-lane.sh <lane>}"
dir="$(cd "$(dirname "$0")/../test/$lane" && pwd)"
stamp="$dir/node_modules/.installed-from-lock"
if [ -f "$dir/package-lock.json" ] && [ -f "$stamp" ] && cmp -s "$dir/package-lock.json" "$stamp"; then exit 0; fi
if [ -f "$dir/package-lock.json" ]; then
  npm ci --prefix "$dir" --no-audit --no-fund --ignore-scripts --loglevel=error
else
  npm install --prefix "$dir" --no-audit --no-fund --ignore-scripts --loglevel=error
fi
cp "$dir/package-lock.json" "$stamp"
