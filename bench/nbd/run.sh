#!/usr/bin/env bash
# NBD front end benchmark: 4 KiB random reads at queue depth 16 and 32 over a
# Unix socket, fio's nbd engine (libnbd) as the load generator, against
#   tierwise      `tierwise-agent serve`, warm RAM tier (the default eviction
#                 policy; no sequential cut-off, so the sequential prefill
#                 populates it), telemetry on (default)
#   tierwise-off  the same with --no-telemetry
#   nbdkit        nbdkit's memory plugin (all data in RAM)
#   qemu-nbd      qemu-nbd on a raw file (page cache warm)
# in one run, each server prefilled with the same data. Every (server, depth)
# pair runs ROUNDS times, interleaved, and the median round is reported: IOPS,
# p50/p99 completion latency, and the server's CPU time per I/O (from
# /proc/PID/stat; steadier than IOPS on a busy host). Goals: tierwise >= 1.2x nbdkit's IOPS;
# telemetry costs <= 3 % of IOPS.
#
# On a shared host, other processes' load decides IOPS more than the servers
# do; RT=1 runs every server and fio under SCHED_FIFO (chrt; root) so the
# comparison measures them rather than the scheduler. None of them spins: they
# sleep in epoll/poll between requests, and the kernel's RT throttling
# (sched_rt_runtime_us) still leaves time to everything else.
#
# MODE=telemetry measures only what telemetry costs, with a control: four
# servers of the same binary, `tierwise` (telemetry on), `tierwise-anchor`
# (telemetry on with --lru-anchor, the opt-in exact LRU count of
# docs/analytics.md), `tierwise-off` and a second `tierwise-off2` (an A/A pair:
# same binary, same flags), ROUNDS rounds (default 11), the order rotated each
# round. Per round and depth it pairs each server with the `tierwise-off` run
# of the same round and prints the median of the per-round IOPS ratios
# (on/off, anchor/off, off2/off), with their spread (quartiles) and the same
# for server CPU per I/O. The A/A ratio's spread is the noise floor: a
# telemetry cost inside it is not measured by this run.
#
# Usage: bench/nbd/run.sh   (env: SIZE_MIB=256 RUNTIME=8 ROUNDS=3 RT=0 PIN=0 MODE= AGENT=...)
#        MODE=telemetry ROUNDS=11 RT=1 PIN=1 bench/nbd/run.sh
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
agent=${AGENT:-$here/../../edge-agent/build/tierwise-agent}
size_mib=${SIZE_MIB:-256}
runtime=${RUNTIME:-8}
mode=${MODE:-}
[[ -z $mode || $mode == telemetry ]] || { echo "bench/nbd: MODE must be empty or 'telemetry', got '$mode'" >&2; exit 1; }
if [[ $mode == telemetry ]]; then rounds=${ROUNDS:-11}; else rounds=${ROUNDS:-3}; fi
rt=()
if [[ ${RT:-0} == 1 ]]; then rt=(chrt --fifo 10); fi
# PIN=1: every server on CPU 1, fio on CPU 0 (the same budget for each server:
# one core; and no run shares the client's core by chance).
srv=("${rt[@]}")
cli=("${rt[@]}")
if [[ ${PIN:-0} == 1 ]]; then srv=(taskset -c 1 "${rt[@]}"); cli=(taskset -c 0 "${rt[@]}"); fi
work=$(mktemp -d /tmp/tierwise-nbd-bench.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

for tool in fio nbdkit qemu-nbd nbdinfo python3; do
  command -v "$tool" >/dev/null || { echo "bench/nbd: $tool is missing (see infra/local/apt-packages.txt)" >&2; exit 1; }
done
[[ -x $agent ]] || { echo "bench/nbd: build the agent first (npm run build -w @tierwise/edge-agent)" >&2; exit 1; }

wait_for_socket() {
  for _ in $(seq 100); do
    nbdinfo --size "$1" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "bench/nbd: no NBD server at $1" >&2
  exit 1
}

# CPU time (user + system, clock ticks) the process has used: /proc/PID/stat fields 14-15.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

cat >"$work/volumes.json" <<JSON
{"volumes": [{"name": "bench", "datastore": "$work/tierwise.img", "size": "${size_mib}MiB",
              "tier": {"ram": "$((size_mib * 2))MiB"}, "sequential_cutoff": "off"}]}
JSON
declare -A pid
"${srv[@]}" "$agent" serve --config "$work/volumes.json" --socket "$work/tw.sock" --key-file "$work/agent.key" \
  2>"$work/tierwise.log" &
pids+=($!); pid[tierwise]=$!
# A telemetry-off server; $1: its name, which also names its socket and image.
start_off() {
  sed "s/tierwise.img/$1.img/" "$work/volumes.json" >"$work/volumes-$1.json"
  "${srv[@]}" "$agent" serve --config "$work/volumes-$1.json" \
    --socket "$work/$1.sock" --no-telemetry 2>"$work/$1.log" &
  pids+=($!); pid[$1]=$!
}
start_off tierwise-off
declare -A uri=(
  [tierwise]="nbd+unix:///bench?socket=$work/tw.sock"
  [tierwise-off]="nbd+unix:///bench?socket=$work/tierwise-off.sock"
)
if [[ $mode == telemetry ]]; then
  start_off tierwise-off2
  uri[tierwise-off2]="nbd+unix:///bench?socket=$work/tierwise-off2.sock"
  sed "s/tierwise.img/tierwise-anchor.img/" "$work/volumes.json" >"$work/volumes-anchor.json"
  "${srv[@]}" "$agent" serve --config "$work/volumes-anchor.json" --socket "$work/anchor.sock" \
    --key-file "$work/agent.key" --lru-anchor 2>"$work/tierwise-anchor.log" &
  pids+=($!); pid[tierwise-anchor]=$!
  uri[tierwise-anchor]="nbd+unix:///bench?socket=$work/anchor.sock"
  servers=(tierwise tierwise-anchor tierwise-off tierwise-off2)
else
  "${srv[@]}" nbdkit --foreground --unix "$work/kit.sock" --exportname bench memory size=${size_mib}M 2>"$work/nbdkit.log" &
  pids+=($!); pid[nbdkit]=$!
  truncate -s ${size_mib}M "$work/qemu.img"
  "${srv[@]}" qemu-nbd --socket "$work/qemu.sock" --format raw --export-name bench --shared 8 --persistent \
    "$work/qemu.img" 2>"$work/qemu-nbd.log" &
  pids+=($!); pid[qemu-nbd]=$!
  uri[nbdkit]="nbd+unix:///bench?socket=$work/kit.sock"
  uri[qemu-nbd]="nbd+unix:///bench?socket=$work/qemu.sock"
  servers=(tierwise tierwise-off nbdkit qemu-nbd)
fi
for s in "${servers[@]}"; do wait_for_socket "${uri[$s]}"; done

# Prefill (and so warm) every server with the same non-zero data.
for s in "${servers[@]}"; do
  fio --name=prefill --ioengine=nbd --uri="${uri[$s]}" --rw=write --bs=1M --iodepth=8 \
    --size=${size_mib}M --buffer_pattern=0x5a --output=/dev/null
  fio --name=warm --ioengine=nbd --uri="${uri[$s]}" --rw=read --bs=1M --iodepth=8 \
    --size=${size_mib}M --output=/dev/null
done

for round in $(seq "$rounds"); do
  # Rotate the order each round, so no server always runs first (or right
  # after the same neighbour).
  shift_by=$(( (round - 1) % ${#servers[@]} ))
  order=("${servers[@]:shift_by}" "${servers[@]:0:shift_by}")
  for qd in 16 32; do
    for s in "${order[@]}"; do
      before=$(cpu_ticks "${pid[$s]}")
      "${cli[@]}" fio --name="randread-$s-qd$qd" --ioengine=nbd --uri="${uri[$s]}" --rw=randread --bs=4k \
        --iodepth=$qd --size=${size_mib}M --time_based --runtime="$runtime" \
        --output-format=json --output="$work/$s-qd$qd-r$round.json"
      echo $(( $(cpu_ticks "${pid[$s]}") - before )) >"$work/$s-qd$qd-r$round.cpu"
    done
  done
done

python3 - "$work" "$rounds" "$(getconf CLK_TCK)" "${RT:-0}" "${PIN:-0}" "$mode" "${servers[@]}" <<'PY'
import json, statistics, sys
work, rounds, tck = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rt, pin, mode, servers = sys.argv[4] == "1", sys.argv[5] == "1", sys.argv[6], sys.argv[7:]
def run(s, qd, r):
    j = json.load(open(f"{work}/{s}-qd{qd}-r{r}.json"))["jobs"][0]["read"]
    p = j["clat_ns"]["percentile"]
    ticks = int(open(f"{work}/{s}-qd{qd}-r{r}.cpu").read())
    cpu_us = ticks * 1e6 / tck / max(j["total_ios"], 1)  # server CPU per I/O
    return j["iops"], p["50.000000"] / 1000, p["99.000000"] / 1000, cpu_us
setup = (f"{', SCHED_FIFO' if rt else ''}{', server on CPU 1, fio on CPU 0' if pin else ''}")
if mode == "telemetry":
    def quartiles(values):
        q = statistics.quantiles(values, n=4, method="inclusive") if len(values) > 1 else values * 3
        return q[0], statistics.median(values), q[2]
    print(f"Telemetry on vs off, 4 KiB random reads over NBD (Unix socket, fio nbd engine, "
          f"{rounds} interleaved rounds{setup}): per round, each server / tierwise-off of that round")
    print(f"{'pair':<26}{'QD':>4}{'IOPS ratio q1 / median / q3':>32}{'CPU us/IO ratio median':>25}")
    verdict = []
    for qd in (16, 32):
        base = [run("tierwise-off", qd, r) for r in range(1, rounds + 1)]
        for s, label in (("tierwise", "on / off"), ("tierwise-anchor", "on + LRU anchor / off"),
                         ("tierwise-off2", "off2 / off (A/A control)")):
            runs = [run(s, qd, r) for r in range(1, rounds + 1)]
            iops = [x[0] / b[0] for x, b in zip(runs, base)]
            cpu = [x[3] / b[3] for x, b in zip(runs, base) if b[3] > 0]
            q1, med, q3 = quartiles(iops)
            cpu_med = statistics.median(cpu) if cpu else float("nan")
            print(f"{label:<26}{qd:>4}{q1:>14.3f} / {med:.3f} / {q3:.3f}{cpu_med:>25.3f}")
            if s == "tierwise":
                on = (med, q1, q3)
            elif s == "tierwise-anchor":
                anchor = med
            else:
                verdict.append(f"QD{qd}: telemetry on costs {100 * (1 - on[0]):+.1f} % IOPS (median of paired "
                               f"ratios; goal <= 3 %), with --lru-anchor {100 * (1 - anchor):+.1f} %; A/A control "
                               f"{100 * (1 - med):+.1f} %, its quartiles {100 * (1 - q3):+.1f} .. {100 * (1 - q1):+.1f} % "
                               f"(the noise floor)")
    print("\n".join(verdict))
    sys.exit(0)
res = {}
for qd in (16, 32):
    for s in servers:
        runs = sorted((run(s, qd, r) for r in range(1, rounds + 1)), key=lambda x: x[0])
        res[s, qd] = runs[len(runs) // 2]  # the median round by IOPS
print(f"4 KiB random reads over NBD (Unix socket, fio nbd engine, median of {rounds} rounds{setup})")
print(f"{'server':<14}{'QD':>4}{'IOPS':>11}{'p50 us':>9}{'p99 us':>9}{'vs nbdkit':>11}{'server CPU us/IO':>18}")
for qd in (16, 32):
    for s in servers:
        iops, p50, p99, cpu = res[s, qd]
        ratio = iops / res["nbdkit", qd][0]
        print(f"{s:<14}{qd:>4}{iops:>11.0f}{p50:>9.1f}{p99:>9.1f}{ratio:>10.2f}x{cpu:>18.2f}")
for qd in (16, 32):
    on, off = res["tierwise", qd][0], res["tierwise-off", qd][0]
    print(f"QD{qd}: tierwise / nbdkit = {on / res['nbdkit', qd][0]:.2f}x (goal >= 1.20x); "
          f"telemetry on costs {100 * (off - on) / off:+.1f} % IOPS (goal <= 3 %)")
PY
