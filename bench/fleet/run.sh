#!/usr/bin/env bash
# The fleet benchmark (fleet-run.mjs): N hosts x M volumes of real agent telemetry, per-stage cost.
# It runs its own stack (ports TIERWISE_PORT_BASE=200, state .local/fleet) unless told otherwise.
#   bench/fleet/run.sh [--hosts 200] [--volumes-per-host 100] [--minutes 10] [--out FILE.json]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export TIERWISE_PORT_BASE=${TIERWISE_PORT_BASE:-200}
export TIERWISE_STATE_DIR=${TIERWISE_STATE_DIR:-$(cd "$here/../.." && pwd)/.local/fleet}
# The jobs' checkpoint interval of production (JobSettings), not the demo stack's.
export TIERWISE_CHECKPOINT_INTERVAL_SECONDS=${TIERWISE_CHECKPOINT_INTERVAL_SECONDS:-60}
source "$here/../../infra/local/env.sh"
# The simulator's old space is mostly its templates, which live for the whole run: with V8's own
# growing factor its next full collection came just above them, so its GC workers marked the
# whole old space over and over. --heap-growing-percent=100 lets the old space double between full
# collections (docs/fleet-scale.md, "What is left": the fleet simulator).
exec node --heap-growing-percent=100 "$here/fleet-run.mjs" "$@"
