#!/usr/bin/env bash
# Installs the Strands lane's packages (test/strands/package.json: @strands-agents/sdk 1.19 and what it
# needs) into test/strands/node_modules (scripts/install-lane.sh). A lane of its own: Strands' optional
# peer openai ^6 conflicts with the openai 7 that @openai/agents installs in the main project.
set -euo pipefail
exec bash "$(dirname "$0")/install-lane.sh" strands
