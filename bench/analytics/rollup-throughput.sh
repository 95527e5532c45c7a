#!/usr/bin/env bash
# Throughput of the rollup job (stream-jobs MetricsRollupJob: Kafka -> OTLP parse -> 10 s/1 min/
# 1 h/1 d rollups of every volume, host, cluster and tenant -> PostgreSQL upserts), in metric
# points (OTLP data points) per second and per core, at parallelism 1 and 2 in one run, on the
# PostgreSQL and Kafka of TIERWISE_PROFILE (start them first). Method and figures: docs/rollups.md.
#
#   TIERWISE_PROFILE=test bench/analytics/rollup-throughput.sh [records]   # default 4000
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
source infra/local/env.sh
records=${1:-4000}
[ -f stream-jobs/target/tierwise-stream-jobs.jar ] || npm run -w @tierwise/stream-jobs build
(cd stream-jobs && mvn -q -B test-compile) # RollupBench and the agent-shaped telemetry builder
echo "rollup-throughput: $(nproc) cores, $(java -version 2>&1 | head -1), load average $(cut -d' ' -f1-3 /proc/loadavg)"
java -Xmx1g -cp stream-jobs/target/tierwise-stream-jobs.jar:stream-jobs/target/test-classes \
  io.tierwise.jobs.bench.RollupBench run "$records"
echo "rollup-throughput: load average after the run $(cut -d' ' -f1-3 /proc/loadavg)"
