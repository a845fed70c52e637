#!/usr/bin/env bash
# Installs the SDK 2 lane's packages (test/sdk2/package.json: @opentelemetry/api 1.9, sdk-trace-base and
# sdk-metrics 2.12, sdk-logs and api-logs 0.223) into test/sdk2/node_modules (scripts/install-lane.sh).
set -euo pipefail
exec bash "$(dirname "$0")/install-lane.sh" sdk2
