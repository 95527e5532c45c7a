#!/usr/bin/env bash
# The long fuzzing run of the NBD handshake and request parser (libFuzzer with
# AddressSanitizer and UBSan): 10 minutes by default, from the checked-in
# seeds, growing a corpus under edge-agent/build/fuzz/nbd_corpus.
#
# Usage: bench/nbd/fuzz.sh [seconds]   (needs clang; the build compiles the fuzzer)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$here/../../edge-agent/build
seconds=${1:-600}
fuzzer=$build/fuzz/nbd_fuzzer
if [[ ! -x $fuzzer ]]; then
  command -v clang++ >/dev/null || { echo "bench/nbd/fuzz.sh: clang++ is missing" >&2; exit 1; }
  cmake --build "$build" --target fuzz_targets
fi
mkdir -p "$build/fuzz/nbd_corpus"
exec "$fuzzer" -max_total_time="$seconds" -print_final_stats=1 \
  "$build/fuzz/nbd_corpus" "$here/../../edge-agent/fuzz/corpus/nbd"
