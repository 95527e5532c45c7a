#!/usr/bin/env bash
# The fleet benchmark (fleet-run.mjs): N hosts x M volumes of real agent telemetry, per-stage cost.
#   bench/fleet/run.sh [--hosts 200] [--volumes-per-host 100] [--minutes 10] [--out FILE.json]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/../../infra/local/env.sh"
exec node "$here/fleet-run.mjs" "$@"
