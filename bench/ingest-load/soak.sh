#!/usr/bin/env bash
# The soak (soak-run.mjs): the stack under load at the sustainable rate, memory watched.
#   bench/ingest-load/soak.sh [--minutes 10] [--rate N] [--keep-stack]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/../../infra/local/env.sh"
exec node "$here/soak-run.mjs" "$@"
