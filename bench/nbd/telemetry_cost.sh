#!/usr/bin/env bash
# What the live telemetry costs the NBD data plane, in instructions per I/O:
# counts that do not depend on the host's load, unlike IOPS (bench/nbd/run.sh).
#
# `tierwise-agent serve` runs under valgrind's callgrind twice, telemetry on
# (default) and off (--no-telemetry), each with a 256 MiB volume on a RAM tier.
# fio's nbd engine prefills and warms it, the counters are zeroed
# (callgrind_control -z), then IOS 4 KiB random reads at queue depth 16 run and
# the counters are dumped. Prints the server's user-space instructions per I/O
# for both, their difference, and the inclusive cost of the telemetry hook
# (LiveTelemetry::on_io, which logs the I/O, and on_turn_end, which records the
# reactor turn's log: collectors, SHARDS hashing and sampling, the HyperLogLog
# sketch) per I/O. Kernel instructions (the socket) are not counted: they are the
# same with and without telemetry. A function-level profile stays in the work
# directory (callgrind_annotate cg.on.1).
#
# Usage: bench/nbd/telemetry_cost.sh   (env: IOS=20000 SIZE_MIB=256 AGENT=... KEEP=1
#        MODES="on off" CALLGRIND_ARGS=--dump-instr=yes for callgrind_annotate --auto=yes
#        per instruction; MODES="on anchor off" also measures telemetry with --lru-anchor;
#        without off only the hooks are printed)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
agent=${AGENT:-$here/../../edge-agent/build/tierwise-agent}
ios=${IOS:-20000}
size_mib=${SIZE_MIB:-256}
for tool in valgrind callgrind_control callgrind_annotate fio nbdinfo python3; do
  command -v "$tool" >/dev/null || { echo "bench/nbd: $tool is missing (see infra/local/apt-packages.txt)" >&2; exit 1; }
done
[[ -x $agent ]] || { echo "bench/nbd: build the agent first (npm run build -w @tierwise/edge-agent)" >&2; exit 1; }
work=$(mktemp -d /tmp/tierwise-telemetry-cost.XXXXXX)
vg=""
cleanup() {
  if [[ -n $vg ]]; then kill -TERM "$vg" 2>/dev/null || true; wait "$vg" 2>/dev/null || true; fi
  if [[ ${KEEP:-0} == 1 ]]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

# Runs one server under callgrind; writes "<I/Os> <instructions> <hook instructions>"
# to $work/result-<mode>.
measure() {
  local mode=$1 flags=(--key-file "$work/agent.key")
  [[ $mode == off ]] && flags=(--no-telemetry)
  [[ $mode == anchor ]] && flags+=(--lru-anchor)
  cat >"$work/volumes-$mode.json" <<JSON
{"volumes": [{"name": "bench", "datastore": "$work/$mode.img", "size": "${size_mib}MiB",
              "tier": {"ram": "$((size_mib * 2))MiB"}, "sequential_cutoff": "off"}]}
JSON
  # shellcheck disable=SC2086 # CALLGRIND_ARGS: extra options, word-split
  valgrind --tool=callgrind ${CALLGRIND_ARGS:-} --callgrind-out-file="$work/cg.$mode" "$agent" serve \
    --config "$work/volumes-$mode.json" --socket "$work/$mode.sock" "${flags[@]}" 2>"$work/serve-$mode.log" &
  vg=$!
  local uri="nbd+unix:///bench?socket=$work/$mode.sock"
  local up=0
  for _ in $(seq 600); do
    if nbdinfo --size "$uri" >/dev/null 2>&1; then up=1; break; fi
    sleep 0.5
  done
  if [[ $up == 0 ]]; then
    echo "bench/nbd: serve under valgrind did not come up:" >&2
    cat "$work/serve-$mode.log" >&2
    exit 1
  fi
  fio --name=prefill --ioengine=nbd --uri="$uri" --rw=write --bs=1M --iodepth=8 --size=${size_mib}M \
    --buffer_pattern=0x5a --output=/dev/null
  fio --name=warm --ioengine=nbd --uri="$uri" --rw=read --bs=1M --iodepth=8 --size=${size_mib}M --output=/dev/null
  callgrind_control -z "$vg" >/dev/null
  fio --name=randread --ioengine=nbd --uri="$uri" --rw=randread --bs=4k --iodepth=16 --size=${size_mib}M \
    --io_size=$((ios * 4))k --output-format=json --output="$work/fio-$mode.json"
  callgrind_control -d "$vg" >/dev/null
  kill -TERM "$vg"; wait "$vg" || true; vg=""
  local dump n total hook
  dump=$work/cg.$mode.1  # the first dump: from the zeroing to the end of the reads
  n=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['jobs'][0]['read']['total_ios'])" "$work/fio-$mode.json")
  total=$(callgrind_annotate "$dump" | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
  # The hook: on_io() logs the I/O, on_turn_end() records the turn's log.
  hook=$(callgrind_annotate --inclusive=yes --threshold=100 "$dump" |
         awk '/LiveTelemetry::on_io\(|LiveTelemetry::on_turn_end\(/ && !seen[$0 ~ /on_io/]++ {
                gsub(",", "", $1); sum += $1 }
              END { print sum + 0 }')
  echo "$n $total ${hook:-0}" >"$work/result-$mode"
}

modes=${MODES:-on off}
for mode in $modes; do measure "$mode"; done
if [[ $modes != *off* ]]; then
  for mode in $modes; do
    read -r n total hook <"$work/result-$mode"
    echo "telemetry $mode: $((total / n)) instructions per I/O, hook $((hook / n)) ($n I/Os)"
  done
  exit 0
fi
python3 - "$work" $modes <<'PY'
import sys
work, modes = sys.argv[1], sys.argv[2:]
res = {m: tuple(map(int, open(f"{work}/result-{m}").read().split())) for m in modes}
n_off, total_off, _ = res["off"]
off = total_off / n_off
names = {"on": "telemetry on", "anchor": "on, --lru-anchor"}
print(f"4 KiB random reads over NBD, warm RAM tier, QD16: server user-space instructions per I/O (callgrind)")
print(f"telemetry off     {off:8.0f}")
for m in (m for m in modes if m != "off"):
    n, total, hook = res[m]
    per_io = total / n
    print(f"{names.get(m, m):<18}{per_io:8.0f}  difference {per_io - off:+5.0f} ({100 * (per_io - off) / off:+.1f} %), "
          f"hook {hook / n:.0f} (LiveTelemetry::on_io and on_turn_end, inclusive)")
PY
