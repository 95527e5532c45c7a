#!/usr/bin/env bash
# Ingest load benchmark against the running local stack: see run.mjs for options.
#   ./tierwise up && bench/ingest-load/run.sh --agents 8 --seconds 30 [--otelcol BIN]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/../../infra/local/env.sh"
exec node "$here/run.mjs" "$@"
