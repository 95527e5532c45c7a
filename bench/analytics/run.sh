#!/usr/bin/env bash
# Analytics benchmark: the working-set job's throughput (sampled references per second per core,
# Flink MiniCluster, parallelism 1 and 2), one volume's estimators with and without the eviction
# policies simulated (paired rounds) and its state bytes, and MRC accuracy and time of
# fixed-size / fixed-rate SHARDS against the exact LRU MRC, beside the peer libCacheSim in the same
# run when LIBCACHESIM_CACHESIM names its cachesim binary (built outside this repository; see
# docs/analytics.md), and every small volume's estimators of the Tencent sample with every policy
# simulated. Figures go to stdout.
#
# Usage: bench/analytics/run.sh [volumes]   (default 8 copies of the trace's volume)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
traces="${TIERWISE_TRACES_DIR:-$root/../shared/traces}"
trace="$traces/cloudphysics_w_sample.vscsi"
agent="$root/edge-agent/build/tierwise-agent"
jobs="$root/stream-jobs"
volumes="${1:-8}"

[[ -x "$agent" ]] || { echo "bench: $agent missing (npm run -w @tierwise/edge-agent build)" >&2; exit 1; }
[[ -f "$jobs/target/tierwise-stream-jobs.jar" ]] || (cd "$jobs" && mvn -q -B package -DskipTests)
[[ -d "$jobs/target/test-classes/io/tierwise/jobs/testing" ]] || (cd "$jobs" && mvn -q -B test-compile)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The agent's own sampler with its defaults (initial rate 1, sample bounded at 10,923 blocks).
"$agent" sample-refs "$trace" --key "$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')" \
  --out "$work/refs.bin" >&2
echo "agent: $(stat -c %s "$work/refs.bin") bytes of ReferenceBatch for $(stat -c %s "$trace") bytes of trace"
# Many small volumes: the Tencent sample's 2,038 volumes, each its own estimators.
"$agent" sample-refs "$traces/tencent_cbs_sample50k.csv.bz2" --key "$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')" \
  --out "$work/small-refs.bin" >&2
cp="$jobs/target/tierwise-stream-jobs.jar:$jobs/target/test-classes"
# Compiled, not launched as a source file: Flink ships the job's functions through class loaders
# that cannot see a source launcher's in-memory classes.
javac -d "$work/classes" -cp "$cp" "$root/bench/analytics/WorkingSetBench.java"
java -Xmx2g -cp "$cp:$work/classes" WorkingSetBench "$agent" "$trace" "$work/refs.bin" "$volumes" "$work/small-refs.bin"
