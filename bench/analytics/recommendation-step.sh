#!/usr/bin/env bash
# The working-set job's recommendation step on one volume's real estimates (RecommendationBench.java):
# every estimate described and then filtered, against the decision first and a description only for
# a material change, paired rounds in one JVM. Figures go to stdout.
#
# Usage: bench/analytics/recommendation-step.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
sample_refs "$trace" "$work/refs.bin"
javac -d "$work/classes" -cp "$cp" "$root/bench/analytics/RecommendationBench.java" "$root/bench/analytics/WorkingSetBench.java" "$root/bench/analytics/PairedRounds.java"
echo "recommendation-step: $(nproc) cores, $(java -version 2>&1 | head -1), load average $(cut -d' ' -f1-3 /proc/loadavg)"
java -Xmx1g -cp "$cp:$work/classes" RecommendationBench "$work/refs.bin"
