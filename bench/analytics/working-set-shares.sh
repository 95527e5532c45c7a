#!/usr/bin/env bash
# A volume's working-set windows fed the agent's batches as the working-set job feeds them:
# simulating each batch's references (the job's stack and panes) against adding the agent's shares
# of them (WorkingSetSharesBench.java), paired rounds in one JVM, on the Tencent CBS sample (2,038
# small volumes, a fleet's shape) and the CloudPhysics trace (one large volume). Figures go to
# stdout.
#
# Usage: bench/analytics/working-set-shares.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
sample_refs "$traces/tencent_cbs_sample50k.csv.bz2" "$work/tencent.bin"
sample_refs "$trace" "$work/cloudphysics.bin"
javac -d "$work/classes" -cp "$cp" "$root/bench/analytics/WorkingSetSharesBench.java" \
  "$root/bench/analytics/WorkingSetBench.java" "$root/bench/analytics/PairedRounds.java"
echo "working-set shares: $(nproc) cores, $(java -version 2>&1 | head -1), load average $(cut -d' ' -f1-3 /proc/loadavg)"
java -Xmx2g -cp "$cp:$work/classes" WorkingSetSharesBench "$work/tencent.bin" "Tencent CBS sample"
java -Xmx2g -cp "$cp:$work/classes" WorkingSetSharesBench "$work/cloudphysics.bin" "CloudPhysics"
