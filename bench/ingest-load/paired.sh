#!/usr/bin/env bash
# Ingest vs the OpenTelemetry Collector (OTLP → Kafka) in paired rounds: see paired.mjs for options.
#   ./tierwise up && bench/ingest-load/paired.sh --otelcol BIN [--rounds 5] [--seconds 20]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/../../infra/local/env.sh"
exec node "$here/paired.mjs" "$@"
