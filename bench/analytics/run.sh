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
volumes="${1:-8}"
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
sample_refs "$trace" "$work/refs.bin"
echo "agent: $(stat -c %s "$work/refs.bin") bytes of ReferenceBatch for $(stat -c %s "$trace") bytes of trace"
# Many small volumes: the Tencent sample's 2,038 volumes, each its own estimators.
sample_refs "$traces/tencent_cbs_sample50k.csv.bz2" "$work/small-refs.bin"
# Compiled, not launched as a source file: Flink ships the job's functions through class loaders
# that cannot see a source launcher's in-memory classes.
javac -d "$work/classes" -cp "$cp" "$root/bench/analytics/WorkingSetBench.java"
java -Xmx2g -cp "$cp:$work/classes" WorkingSetBench "$agent" "$trace" "$work/refs.bin" "$volumes" "$work/small-refs.bin"
