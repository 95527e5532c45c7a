#!/usr/bin/env bash
# Ingest vs the OpenTelemetry Collector (OTLP → Kafka) in paired rounds: see paired.mjs for options.
#   ./tierwise up && bench/ingest-load/paired.sh --otelcol BIN [--rounds 5] [--seconds 20]
#
# The stack's stream jobs consume what ingest publishes and nothing the collector writes: left
# running they would spend CPU beside ingest's rounds only, on this machine's two cores. They are
# stopped for the rounds (their state stays in their retained checkpoint, stream-jobs
# LocalCheckpoints) and started again after with `./tierwise up`, which starts what is stopped.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$root/infra/local/env.sh"
source "$root/infra/local/lib.sh"

restart_stream_jobs() {
  echo "paired: starting the stream jobs again (./tierwise up, log $TW_LOG_DIR/stream-jobs.log)"
  "$root/tierwise" up >/dev/null
}
if tw_pid stream-jobs >/dev/null; then
  echo "paired: stopping the stream jobs for the rounds"
  tw_stop stream-jobs >/dev/null
  trap restart_stream_jobs EXIT
fi
node "$here/paired.mjs" "$@"
