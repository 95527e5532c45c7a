#!/usr/bin/env bash
# The long run of the write-back power-loss harness (docs/write-back.md
# "Power-loss testing"): random power cuts of 600-command runs (two phases,
# random queue depths and hot sets, a quarter with a cut during recovery),
# batch after batch of TIERWISE_PLSIM_POINTS cases with fresh seeds until the
# time is up. Prints each batch's summary and the totals; exits 1 at the first
# failing case (its replay line is in the output).
#
# Usage: bench/power-loss/run.sh [seconds]   (default 600; builds the test when missing)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$here/../../edge-agent/build
seconds=${1:-600}
points=${TIERWISE_PLSIM_POINTS:-1000}
test_bin=$build/src/cache/power_loss_test
[[ -x $test_bin ]] || cmake --build "$build" --target power_loss_test
end=$((SECONDS + seconds))
batches=0 cases=0 cuts=0 writes=0
while (( SECONDS < end )); do
  seed=$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')
  out=$(TIERWISE_PLSIM_POINTS=$points TIERWISE_PLSIM_SEED=$seed "$test_bin" \
    --gtest_filter=PowerLoss.RandomCutsOfLongerRuns 2>&1) || { echo "$out"; echo "FAILED in batch seed $seed" >&2; exit 1; }
  line=$(grep "random cuts of longer runs:" <<<"$out")
  echo "seed $seed: ${line#*: }"
  read -r c k w < <(sed -E 's/.*: ([0-9]+) cases, ([0-9]+) power cuts, .*; ([0-9]+) acknowledged writes.*/\1 \2 \3/' <<<"$line")
  batches=$((batches + 1)) cases=$((cases + c)) cuts=$((cuts + k)) writes=$((writes + w))
done
echo "total: $batches batches, $cases cases, $cuts power cuts, $writes acknowledged writes in ${seconds} s; 0 failed"
