#!/usr/bin/env bash
# The long fuzzing runs of the agent's parsers (libFuzzer with AddressSanitizer
# and UBSan), 10 minutes by default, growing a corpus under
# edge-agent/build/fuzz/<target>_corpus:
#   nbd          the NBD handshake and request parser, from the checked-in seeds
#   replication  the WB+n replication protocol: frames, the peer's and the
#                owner's rules (issue 19; it builds its own conversations)
#
# Usage: bench/fuzz/run.sh nbd|replication [seconds]   (needs clang; the build compiles the fuzzers)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$here/../../edge-agent/build
target=${1:?usage: bench/fuzz/run.sh nbd|replication [seconds]}
seconds=${2:-600}
case $target in
  nbd) seeds=("$here/../../edge-agent/fuzz/corpus/nbd") ;;
  replication) seeds=() ;;
  *) echo "bench/fuzz/run.sh: unknown target '$target' (nbd or replication)" >&2; exit 2 ;;
esac
fuzzer=$build/fuzz/${target}_fuzzer
if [[ ! -x $fuzzer ]]; then
  command -v clang++ >/dev/null || { echo "bench/fuzz/run.sh: clang++ is missing" >&2; exit 1; }
  cmake --build "$build" --target fuzz_targets
fi
mkdir -p "$build/fuzz/${target}_corpus"
exec "$fuzzer" -max_total_time="$seconds" -print_final_stats=1 "$build/fuzz/${target}_corpus" "${seeds[@]}"
