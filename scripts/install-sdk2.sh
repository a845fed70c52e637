#!/usr/bin/env bash
# Installs the SDK 2 lane's packages (test/sdk2/package.json: @opentelemetry/api 1.9, sdk-trace-base and
# sdk-metrics 2.12, sdk-logs and api-logs 0.223) into test/sdk2/node_modules from its lock file. Skipped when
# they are installed already from the same lock file, so `npm test` pays for it once.
set -euo pipefail
dir="$(cd "$(dirname "$0")/../test/sdk2" && pwd)"
stamp="$dir/node_modules/.installed-from-lock"
if [ -f "$dir/package-lock.json" ] && [ -f "$stamp" ] && cmp -s "$dir/package-lock.json" "$stamp"; then exit 0; fi
if [ -f "$dir/package-lock.json" ]; then
  npm ci --prefix "$dir" --no-audit --no-fund --ignore-scripts --loglevel=error
else
  npm install --prefix "$dir" --no-audit --no-fund --ignore-scripts --loglevel=error
fi
cp "$dir/package-lock.json" "$stamp"
