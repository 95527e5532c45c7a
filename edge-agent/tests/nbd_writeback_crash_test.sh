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
#   rack_power  WB+1 with a persistent peer (`peer --store`), 10 rounds: owner
#               and peer are SIGKILLed at once (a power cut of both) and the
#               owner's tier file deleted; the peer restarts, loads its replicas
#               from its store and takes the volume over; fio --verify_only on
#               the datastore file alone: 0 errors.
#   owner_loss  WB+1, 20 rounds: the owner is SIGKILLed and its tier file
#               deleted (the host is gone); the peer must take the volume over
#               (its lease unrenewed for lease_ms) and destage; then fio
#               --verify_only reads the datastore file alone: 0 errors. Then a
#               write-through owner rewrites every region, and the old owner
#               comes back with the tier file of the last round: its journal
#               must be fenced (not applied), checked by a final verify.
#
# How acknowledgements are tracked: the 32 MiB volume is cut into 16 regions of
# 2 MiB. Job k writes region k % 16 completely (random 4-64 KiB writes, queue
# depth 16, seed k, every block filled with the pattern "k, then the block's
# offset": --verify=pattern --verify_pattern=<k>%o) and exits 0 only once
# every write was acknowledged; the job that a kill interrupts is run again
# (same k, same data) after the restart. So at the end region r holds the data
# of the highest completed k with k % 16 == r, and `fio --verify_only` with
# that k checks every block: a block that lost its last write, holds another
# job's data or a torn mix fails. (Not --verify=crc32c: fio 3.33 checks its
# header's magic, length, offset and checksum but not the seed under
# --verify_only, so an older job's intact block passed.) Jobs are
# short (~0.2-0.5 s) and the destager is held to 2 MiB/s, slower than fio
# writes, so the 4.5 MiB journal stays nearly full: the jobs completed just
# before each kill are still in it, not yet destaged, and recovery must apply
# them (the test checks that restarts applied records).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

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
# shellcheck source=nbd_fio_lib.sh
source "$here/nbd_fio_lib.sh"

for tool in fio nbdsh python3; do
  command -v "$tool" >/dev/null || fail "$tool is missing (infra/local/apt-packages.txt lists its package)"
done

# write_config [peers JSON array [mode]]
write_config() {
  local peers=${1:-} mode=${2:-write-back}
  local wb_keys=', "journal_entries": 1024, "destage_rate": "2MiB"'
  [[ $mode == write-back ]] || wb_keys=
  cat >"$work/volumes.json" <<JSON
{"listen": "unix:$sock",
 "volumes": [
   {"name": "wb", "datastore": "$work/wb.img", "size": "32MiB", "mode": "$mode",
    "tier": {"file": "$work/wb.tier", "size": "8MiB"}$wb_keys${peers:+, \"peers\": $peers, \"lease_ms\": 1000}}
 ]}
JSON
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

# Finishes the job a kill interrupted, then verifies every region through the
# agent against its last completed job.
final_verify() {
  local k
  k=$(cat "$work/next_k")
  fio_job "$k" --output="$work/fio-last.txt" || { cat "$work/fio-last.txt" >&2; fail "fio job $k failed"; }
  echo "$k" >>"$work/done"
  local done_jobs
  done_jobs=$(sort -n "$work/done" | uniq | wc -l)
  (( done_jobs > regions )) || fail "only $done_jobs fio jobs completed: too few to overwrite every region"
  for r in $(seq 0 $((regions - 1))); do
    verify_region "$r" "$(last_job_of "$r")" --ioengine=nbd --uri="nbd+unix:///wb?socket=$sock" --iodepth=16
  done
  echo "verified $regions regions (32 MiB) after $done_jobs completed fio jobs: 0 verify errors"
}

# verify_datastore: fio --verify_only on the datastore file alone (no agent),
# every region with a completed job except the one the last kill interrupted
# (its writes were never all acknowledged; the next round runs it again).
verify_datastore() {
  verify_regions $(( $(cat "$work/next_k") % regions )) --ioengine=psync --filename="$work/wb.img"
  verified_regions=$((verified_regions + verified))
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
  start_peer
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

owner_loss)
  start_peer
  peers="[\"127.0.0.1:$(cat "$work/peer.port")\"]"
  write_config "$peers"
  verified_regions=0
  for i in $(seq 20); do
    start_agent
    grep -q "owner of epoch" "$work/agent.log" || fail "the volume did not take the lease"
    write_loop &
    fio_pid=$!
    sleep "$(random_delay)"
    kill_agent
    wait "$fio_pid" || true
    fio_pid=
    (( i == 20 )) && cp "$work/wb.tier" "$work/old.tier"
    rm -f "$work/wb.tier"  # the owner's host is gone, and its tier with it
    for _ in $(seq 300); do
      (( $(grep -c "took over, destaged" "$work/peer.log" || true) >= i )) && break
      sleep 0.05
    done
    (( $(grep -c "took over, destaged" "$work/peer.log" || true) >= i )) ||
      { cat "$work/peer.log" >&2; fail "round $i: the peer did not take the volume over within 15 s"; }
    verify_datastore
  done
  destaged=$(grep -o "destaged [0-9]* records" "$work/peer.log" | awk '$2 > 0' | wc -l)
  (( destaged >= 10 )) || fail "only $destaged of 20 takeovers destaged records: the kills came after the destager"
  echo "20 owner losses: the peer took over each time ($destaged with records to destage); $verified_regions region verifies on the datastore alone, 0 errors"
  # A write-through owner (no lease, fresh tier) rewrites every region anew.
  write_config "" write-through
  start_agent
  first=$(cat "$work/next_k")
  for k in $(seq "$first" $((first + regions))); do
    fio_job "$k" --output="$work/fio-wt.txt" || { cat "$work/fio-wt.txt" >&2; fail "fio job $k failed"; }
    echo "$k" >>"$work/done"
    echo $((k + 1)) >"$work/next_k"
  done
  kill -TERM "$agent_pid"
  wait "$agent_pid" || fail "the write-through agent exited non-zero after SIGTERM"
  agent_pid=
  rm -f "$sock"
  # The old owner comes back with the tier of the last round.
  mv "$work/old.tier" "$work/wb.tier"
  write_config "$peers"
  start_agent
  kill -TERM "$agent_pid"
  wait "$agent_pid" || true
  agent_pid=
  verify_datastore  # a replayed stale record fails here
  grep -q "journal fenced: [1-9][0-9]* records of epoch" "$work/agent.log" ||
    { tail -5 "$work/agent.log" >&2; fail "the old owner's journal was not fenced"; }
  grep -o "journal fenced: [^;]*" "$work/agent.log" | tail -1
  echo "after the old owner came back: every region verified on the datastore alone, 0 errors"
  ;;

rack_power)
  start_peer --store "$work/peer-store"
  write_config "[\"127.0.0.1:$(cat "$work/peer.port")\"]"
  verified_regions=0
  for i in $(seq 10); do
    start_agent
    write_loop &
    fio_pid=$!
    sleep "$(random_delay)"
    kill -KILL "$agent_pid" "$peer_pid"  # the power of both hosts goes at once
    wait "$agent_pid" "$peer_pid" 2>/dev/null || true
    agent_pid= peer_pid=
    rm -f "$sock" "$work/wb.tier"  # and the owner's host does not come back
    wait "$fio_pid" || true
    fio_pid=
    start_peer --store "$work/peer-store"
    for _ in $(seq 300); do
      (( $(grep -c "took over, destaged" "$work/peer.log" || true) >= i )) && break
      sleep 0.05
    done
    (( $(grep -c "took over, destaged" "$work/peer.log" || true) >= i )) ||
      { tail -5 "$work/peer.log" >&2; fail "round $i: the restarted peer did not take the volume over"; }
    verify_datastore
  done
  loaded=$(grep -c "loaded [1-9][0-9]* records" "$work/peer.log" || true)
  (( loaded >= 5 )) || fail "only $loaded of 10 peer restarts loaded replicas from the store"
  echo "10 power cuts of owner and peer: the peer loaded its replicas $loaded times and took over each time; $verified_regions region verifies on the datastore alone, 0 errors"
  ;;

*)
  fail "unknown case $case_name"
  ;;
esac
