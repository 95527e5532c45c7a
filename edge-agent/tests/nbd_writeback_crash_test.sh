#!/usr/bin/env bash
# `tierwise-agent serve` with a write-back volume (tier file), killed with
# SIGKILL under fio's nbd engine: every write fio saw acknowledged before a kill
# must read back after the restart (journal recovery).
#
# Usage: nbd_writeback_crash_test.sh <tierwise-agent binary> <case>
# Cases:
#   agent_kill  20 rounds: start `serve`, run fio jobs back to back, SIGKILL the
#               agent at a random point (0.5-2.5 s in), restart. Then one
#               verify-only fio pass over every region: 0 verify errors.
#   peer_kill   WB+1: a `tierwise-agent peer` is SIGKILLed mid-run; the volume
#               must fall back to write-through and the same checks pass, also
#               after a SIGKILL of the agent that follows.
#
# How acknowledgements are tracked: the 32 MiB volume is cut into 16 regions of
# 2 MiB. Job k writes region k % 16 completely (random 4-64 KiB writes, queue
# depth 16, --verify=crc32c, seed k) and exits 0 only once every write was
# acknowledged; the job that a kill interrupts is run again (same k, same data)
# after the restart. So at the end region r holds the data of the highest
# completed k with k % 16 == r, and `fio --verify_only` with that seed checks
# every block (the crc32c header carries the offset and the seed, so a block
# that lost its last write, or holds another job's data, fails). Jobs are
# short (~0.2-0.5 s) and the destager is held to 2 MiB/s, slower than fio
# writes, so the 4.5 MiB journal stays nearly full: the jobs completed just
# before each kill are still in it, not yet destaged, and recovery must apply
# them (the test checks that restarts applied records).
set -euo pipefail

agent=$1
case_name=$2
work=$(mktemp -d /tmp/tierwise-wb-crash.XXXXXX)
sock=$work/nbd.sock
agent_pid=
peer_pid=
fio_pid=
cleanup() {
  for p in $fio_pid $agent_pid $peer_pid; do kill -KILL "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work"

regions=16
region_bytes=$((2 << 20))

fail() {
  echo "FAIL: $*" >&2
  [[ -f $work/agent.log ]] && { echo "--- agent log (last 40 lines)" >&2; tail -40 "$work/agent.log" >&2; }
  exit 1
}

for tool in fio nbdsh python3; do
  command -v "$tool" >/dev/null || fail "$tool is missing (infra/local/apt-packages.txt lists its package)"
done

# write_config [peers JSON array]
write_config() {
  local peers=${1:-}
  cat >"$work/volumes.json" <<JSON
{"listen": "unix:$sock",
 "volumes": [
   {"name": "wb", "datastore": "$work/wb.img", "size": "32MiB", "mode": "write-back",
    "tier": {"file": "$work/wb.tier", "size": "8MiB"}, "journal_entries": 1024,
    "destage_rate": "2MiB"${peers:+, \"peers\": $peers}}
 ]}
JSON
}

start_agent() {
  "$agent" serve --config "$work/volumes.json" --no-telemetry >>"$work/agent.log" 2>&1 &
  agent_pid=$!
  for _ in $(seq 200); do
    if [[ -S $sock ]] && tail -5 "$work/agent.log" | grep -q "serving 1 volume(s) over NBD"; then return 0; fi
    kill -0 "$agent_pid" 2>/dev/null || fail "agent exited before serving"
    sleep 0.05
  done
  fail "agent did not print its ready line within 10 s"
}

kill_agent() {
  kill -KILL "$agent_pid"
  wait "$agent_pid" 2>/dev/null || true
  agent_pid=
  rm -f "$sock"
}

# fio_job <k> [extra fio options]: region k % 16 with seed k.
fio_job() {
  local k=$1
  shift
  fio --name="region-$k" --ioengine=nbd --uri="nbd+unix:///wb?socket=$sock" --rw=randwrite \
    --bsrange=4k-64k --iodepth=16 --offset=$(( (k % regions) * region_bytes )) --size=$region_bytes \
    --randseed=$k --verify=crc32c --verify_fatal=1 --do_verify=0 "$@"
}

# Runs jobs k = next_k, next_k + 1, ... until one fails (the agent died);
# records each completed k in $work/done. Runs in the background.
write_loop() {
  local k
  k=$(cat "$work/next_k")
  while fio_job "$k" --output="$work/fio-write.txt" >/dev/null 2>&1; do
    echo "$k" >>"$work/done"
    k=$((k + 1))
    echo "$k" >"$work/next_k"
  done
}

# round <seconds before the kill>
round() {
  start_agent
  write_loop &
  fio_pid=$!
  sleep "$1"
  kill_agent
  wait "$fio_pid" || true
  fio_pid=
}

random_delay() { python3 -c "import random; print(round(random.uniform(0.5, 2.5), 2))"; }

# Finishes the job a kill interrupted, then verifies every region against the
# seed of its last completed job.
final_verify() {
  local k
  k=$(cat "$work/next_k")
  fio_job "$k" --output="$work/fio-last.txt" || { cat "$work/fio-last.txt" >&2; fail "fio job $k failed"; }
  echo "$k" >>"$work/done"
  local done_jobs
  done_jobs=$(sort -n "$work/done" | uniq | wc -l)
  (( done_jobs > regions )) || fail "only $done_jobs fio jobs completed: too few to overwrite every region"
  local args=()
  for r in $(seq 0 $((regions - 1))); do
    k=$(awk -v r="$r" -v n="$regions" '$1 % n == r' "$work/done" | sort -n | tail -1)
    args+=(--name="verify-$r" --ioengine=nbd --uri="nbd+unix:///wb?socket=$sock" --rw=randwrite
      --bsrange=4k-64k --iodepth=16 --offset=$((r * region_bytes)) --size=$region_bytes --randseed="$k"
      --verify=crc32c --verify_only=1 --verify_fatal=0)
  done
  local rc=0
  fio "${args[@]}" --output="$work/fio-verify.txt" 2>"$work/fio-verify.err" || rc=$?
  grep -q "verify-$((regions - 1)):" "$work/fio-verify.txt" || { cat "$work/fio-verify.txt" >&2; fail "verify pass did not run"; }
  local clean
  clean=$(grep -c "err= 0" "$work/fio-verify.txt" || true)
  if (( rc != 0 || clean != regions )); then
    cat "$work/fio-verify.txt" "$work/fio-verify.err" >&2
    fail "verify errors after the restarts (fio exit $rc, $clean of $regions jobs with err= 0)"
  fi
  grep -q "READ: bw=.*io=32.0MiB" "$work/fio-verify.txt" || { cat "$work/fio-verify.txt" >&2; fail "the verify pass did not read all 32 MiB"; }
  echo "verified $regions regions (32 MiB) after $done_jobs completed fio jobs: 0 verify errors"
}

echo 0 >"$work/next_k"
: >"$work/done"

case $case_name in
agent_kill)
  write_config
  for i in $(seq 20); do
    round "$(random_delay)"
  done
  start_agent
  recovered=$(grep -c "journal recovered: [1-9]" "$work/agent.log" || true)
  (( recovered >= 8 )) || fail "only $recovered of 20 restarts found records to apply in the journal"
  echo "$recovered of 20 restarts applied acknowledged records from the journal"
  final_verify
  grep -q "write-back (WB+0" "$work/agent.log" || fail "the volume did not open in write-back"
  # TRIM is not advertised on a write-back volume, and refused (EINVAL) if sent anyway.
  PATH=/usr/bin:$PATH nbdsh -u "nbd+unix:///wb?socket=$sock" -c '
assert not h.can_trim()
assert h.can_multi_conn() and h.can_flush() and h.can_fua()
h.set_strict_mode(0)
try:
    h.trim(4096, 0)
    raise SystemExit("TRIM succeeded on a write-back volume")
except nbd.Error as e:
    assert e.errno == "EINVAL", e
' || fail "TRIM/flags check on the write-back volume"
  kill -TERM "$agent_pid"
  wait "$agent_pid" || fail "agent exited non-zero after SIGTERM"
  agent_pid=
  ;;

peer_kill)
  "$agent" peer --listen 127.0.0.1:0 --port-file "$work/peer.port" >"$work/peer.log" 2>&1 &
  peer_pid=$!
  for _ in $(seq 100); do [[ -s $work/peer.port ]] && break; sleep 0.05; done
  [[ -s $work/peer.port ]] || fail "peer did not listen"
  write_config "[\"127.0.0.1:$(cat "$work/peer.port")\"]"
  start_agent
  grep -q "write-back (WB+1" "$work/agent.log" || fail "the volume did not open in WB+1"
  write_loop &
  fio_pid=$!
  sleep "$(random_delay)"
  kill -KILL "$peer_pid"
  wait "$peer_pid" 2>/dev/null || true
  peer_pid=
  sleep 1.5
  grep -q "peer failed" "$work/agent.log" || fail "the agent did not report the peer failure"
  grep -q "falling back to write-through" "$work/agent.log" || fail "no fall-back to write-through"
  # Keep writing (now write-through) until every region was written, then SIGKILL the agent.
  for _ in $(seq 600); do
    (( $(wc -l <"$work/done") > regions )) && break
    sleep 0.1
  done
  sleep "$(random_delay)"
  kill_agent
  wait "$fio_pid" || true
  fio_pid=
  # Restarted without the dead peer: plain write-back, the journal recovered.
  write_config
  start_agent
  grep -q "journal recovered" "$work/agent.log" || fail "the restart did not recover the journal"
  final_verify
  ;;

*)
  fail "unknown case $case_name"
  ;;
esac
