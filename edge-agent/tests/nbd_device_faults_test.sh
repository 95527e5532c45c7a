#!/usr/bin/env bash
# Datastore and tier failures under fio (docs/write-back.md "Datastore
# failures", "Tier failure"): the failing device is a loop device over a file
# of a FUSE file system (tests/faulty_fs.py) that fails reads or writes with
# EIO or ENOSPC, fails flushes with EIO, or stalls, on demand; so the agent
# gets the kernel's own errors.
#
# Usage: nbd_device_faults_test.sh <tierwise-agent binary> <case>
# Cases (the datastore fails):
#   datastore_write_through  fio jobs write while the datastore fails writes with EIO,
#                  then ENOSPC, then stalls 1 s per write: the jobs that hit a
#                  failure see that errno (the client gets the datastore's
#                  error) and are run again; every region written verifies
#                  through the agent and on the datastore file alone.
#   datastore_write_back     the same faults: no fio job fails (the journal acknowledges;
#                  the destager logs the failure once, retries with back-off and
#                  recovers); every region written verifies through the agent,
#                  and on the datastore file alone once a restart's recovery
#                  wrote the journal. Then a failed datastore flush: destaging
#                  stops and the journal keeps everything; the agent is killed
#                  and restarts, recovery writes the journal again; the same
#                  checks. Each verify runs right after the faults, before any
#                  later job could overwrite what was written under them.
# Cases (the tier fails: every read, write and flush EIO, for good):
#   tier_write_through  no fio job fails (an I/O whose tier part failed is
#                  served again from the datastore); the tier is disabled; every
#                  region verifies through the agent and on the datastore alone.
#   tier_write_back  WB+1 with a `tierwise-agent peer`: no fio job fails; the
#                  peer destages the journal, the volume goes on write-through
#                  without its tier; every region verifies through the agent and
#                  on the datastore alone; a restart on the repaired tier finds
#                  its journal fenced (not replayed over the newer writes) and
#                  every region still verifies.
# Job k writes region k % 16 of the 32 MiB volume (tests/nbd_fio_lib.sh).
# Needs root (loop devices, FUSE); exits 77 (skipped) without them.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

agent=$1
case_name=$2
work=$(mktemp -d /tmp/tierwise-ds-faults.XXXXXX)
sock=$work/nbd.sock
agent_pid=
peer_pid=
fs_pid=
loop=
loop_pid=
regions=16
region_bytes=$((2 << 20))
# shellcheck source=nbd_fio_lib.sh
source "$here/nbd_fio_lib.sh"

# Every step may find its part gone already (the FUSE server exits once unmounted): under set -e a
# failed step here would end the script with status 1 after the case passed, so each is guarded.
cleanup() {
  for p in $loop_pid $agent_pid $peer_pid; do kill -KILL "$p" 2>/dev/null || true; done
  [[ -z $loop ]] || losetup -d "$loop" 2>/dev/null || true
  if mountpoint -q "$work/mnt" 2>/dev/null; then fusermount -u "$work/mnt" 2>/dev/null || umount -l "$work/mnt" || true; fi
  [[ -z $fs_pid ]] || kill "$fs_pid" 2>/dev/null || true
  rm -rf "$work" || true
}
trap cleanup EXIT
cd "$work"

skip() {
  echo "SKIP: $*"
  exit 77
}
[[ $(id -u) -eq 0 ]] || skip "needs root for loop devices and FUSE"
[[ -c /dev/fuse ]] || skip "no /dev/fuse"
/usr/bin/python3 -c "import fusepy" 2>/dev/null || fail "python3-fusepy is missing (infra/local/apt-packages.txt)"
command -v fio >/dev/null || fail "fio is missing (infra/local/apt-packages.txt)"

# The failing device: back/dev.img seen through the faulty FUSE mount, under a
# loop device; the datastore (tier_* cases) or the tier (datastore_* cases) is
# a plain file.
mkdir -p back mnt
truncate -s 32M back/dev.img
/usr/bin/python3 "$here/faulty_fs.py" back mnt "$work/faults.json" >"$work/fs.log" 2>&1 &
fs_pid=$!
for _ in $(seq 100); do mountpoint -q mnt && break; sleep 0.05; done
mountpoint -q mnt || { cat "$work/fs.log" >&2; skip "cannot mount FUSE here"; }
loop=$(losetup -f --show --direct-io=off "$work/mnt/dev.img") || skip "no free loop device"

faults() {
  echo "$1" >"$work/faults.json.tmp"
  mv "$work/faults.json.tmp" "$work/faults.json"
}

case $case_name in
datastore_*) datastore=$loop ds_file=$work/back/dev.img tier=$work/wb.tier ;;
*) datastore=$work/ds.img ds_file=$work/ds.img tier=$loop ;;
esac

# write_config <mode> [peers JSON array [destage rate]]
write_config() {
  local mode=$1 peers=${2:-} rate=${3:-} wb_keys=
  [[ $mode == write-back ]] && wb_keys=', "journal_entries": 1024'
  [[ -n $peers ]] && wb_keys+=", \"peers\": $peers, \"lease_ms\": 1000"
  [[ -n $rate ]] && wb_keys+=", \"destage_rate\": \"$rate\""
  cat >"$work/volumes.json" <<JSON
{"listen": "unix:$sock",
 "volumes": [{"name": "wb", "datastore": "$datastore", "size": "32MiB", "mode": "$mode",
              "tier": {"file": "$tier", "size": "8MiB"}$wb_keys}]}
JSON
}

# wait_log <text>: up to 10 s for the agent to log it.
wait_log() {
  for _ in $(seq 100); do grep -qF "$1" "$work/agent.log" && return 0; sleep 0.1; done
  fail "the agent did not log: $1"
}

# phase <faults JSON> <seconds>: the faults for that long, then none.
phase() {
  faults "$1"
  sleep "$2"
  faults '{}'
  sleep 1
}

# verify_written agent|file: every region a job completed, through the agent or
# on the datastore's backing file alone. Run right after the faults, before
# later jobs could overwrite what was written under them.
verify_written() {
  if [[ $1 == agent ]]; then
    verify_regions -1 --ioengine=nbd --uri="nbd+unix:///wb?socket=$sock" --iodepth=16
  else
    verify_regions -1 --ioengine=psync --filename="$ds_file"
  fi
  (( verified >= 4 )) || fail "only $verified regions were written: too few jobs ran"
}

# Stops the agent, starts it again (recovery writes what the journal holds to
# the datastore) and stops it: then the datastore alone holds every write.
settle_datastore() {
  stop_agent
  start_agent
  stop_agent
}

stop_agent() {
  kill -TERM "$agent_pid"
  wait "$agent_pid" || fail "the agent exited non-zero after SIGTERM"
  agent_pid=
  rm -f "$sock"
}

echo 0 >"$work/next_k"
: >"$work/done"
: >"$work/failed"
faults '{}'

case $case_name in
datastore_write_through)
  write_config write-through
  start_agent
  start_jobs
  sleep 1
  phase '{"write": "eio"}' 1.5
  grep -q "Input/output error" "$work/failed" || { cat "$work/failed" >&2; fail "no fio job saw EIO from a failed datastore write"; }
  phase '{"write": "enospc"}' 1.5
  grep -q "No space left on device" "$work/failed" ||
    { cat "$work/failed" >&2; fail "no fio job saw ENOSPC from a full datastore"; }
  phase '{"stall_ms": 1000}' 3
  stop_jobs
  verify_written agent
  stop_agent
  verify_written file
  echo "write-through: $(grep -c '^job' "$work/failed") fio jobs failed with the datastore's error and were run again; $verified regions verify through the agent and on the datastore alone"
  ;;

datastore_write_back)
  write_config write-back
  start_agent
  start_jobs
  sleep 1
  phase '{"write": "eio"}' 2
  phase '{"write": "enospc"}' 2
  phase '{"stall_ms": 1000}' 3
  stop_jobs
  grep -q "destage failing (Input/output error" "$work/agent.log" || fail "no destage failure reported for EIO"
  grep -q "destage failing (No space left on device" "$work/agent.log" || fail "no destage failure reported for ENOSPC"
  grep -q "destage recovered after" "$work/agent.log" || fail "the destager did not report its recovery"
  [[ ! -s $work/failed ]] || { cat "$work/failed" >&2; fail "a write-back write failed although the journal held it"; }
  verify_written agent
  settle_datastore
  verify_written file
  echo "write-back: 0 fio jobs failed through EIO, ENOSPC and stalls of the datastore; $verified regions verify through the agent and on the datastore alone"
  # A failed datastore flush: destaging stops, the journal keeps every record.
  start_agent
  start_jobs
  sleep 0.5
  faults '{"flush": "eio"}'
  for _ in $(seq 100); do grep -q "datastore flush failed" "$work/agent.log" && break; sleep 0.1; done
  grep -q "datastore flush failed (Input/output error)" "$work/agent.log" || fail "no datastore flush failure reported"
  faults '{}'
  sleep 1
  kill_agent  # the destager stopped; recovery writes the journal again
  stop_jobs
  start_agent
  grep -q "journal recovered: [1-9]" "$work/agent.log" || fail "the restart did not write the journal again"
  start_jobs  # runs the job the kill interrupted first
  sleep 2
  stop_jobs
  verify_written agent
  settle_datastore
  verify_written file
  echo "write-back: after a failed datastore flush and a restart, $verified regions verify through the agent and on the datastore alone"
  ;;

tier_write_through)
  write_config write-through
  start_agent
  start_jobs
  sleep 2
  faults '{"read": "eio", "write": "eio", "flush": "eio"}'
  wait_log "tier failed (Input/output error"
  wait_log "the tier is disabled, every I/O goes to the datastore"
  sleep 2
  stop_jobs
  faults '{}'
  [[ ! -s $work/failed ]] || { cat "$work/failed" >&2; fail "a fio job saw the tier's error"; }
  verify_written agent
  stop_agent
  verify_written file
  echo "tier write-through: the tier failed for good, 0 fio jobs failed; $verified regions verify through the agent and on the datastore alone"
  ;;

tier_write_back)
  start_peer
  # A slow destager keeps the journal full, so the tier holds many records
  # when it fails (and the restart below has something to fence).
  write_config write-back "[\"127.0.0.1:$(cat "$work/peer.port")\"]" 1MiB
  start_agent
  start_jobs
  sleep 2
  faults '{"read": "eio", "write": "eio", "flush": "eio"}'
  wait_log "tier failed (Input/output error"
  wait_log "tier disabled: the journal is on the datastore"
  grep -q "for its owner, whose tier failed" "$work/peer.log" || fail "the peer did not destage for its owner"
  sleep 2
  stop_jobs
  [[ ! -s $work/failed ]] || { cat "$work/failed" >&2; fail "a fio job saw the tier's error"; }
  verify_written agent
  # The peer goes first, so that it cannot take the stopped volume over: only
  # the owner's own move to the next epoch fences the failed tier's journal.
  kill -KILL "$peer_pid"
  wait "$peer_pid" 2>/dev/null || true
  peer_pid=
  stop_agent
  verify_written file
  echo "tier write-back (WB+1): the tier failed for good, 0 fio jobs failed; $(grep -o 'destaged [0-9]* records' "$work/peer.log" | head -1) by the peer, I/O $(grep -o 'parked for [0-9]* ms' "$work/agent.log" | head -1); $verified regions verify through the agent and on the datastore alone"
  # The tier is repaired and the agent restarts on it: the journal of the old
  # epoch is fenced, not replayed over the writes made without the tier.
  faults '{}'
  start_peer
  write_config write-back "[\"127.0.0.1:$(cat "$work/peer.port")\"]" 1MiB
  start_agent
  wait_log "journal fenced"
  fenced=$(grep -o "journal fenced: [0-9]* records" "$work/agent.log" | grep -o "[0-9]*")
  (( fenced >= 100 )) || fail "only $fenced records fenced: the tier held too few to show the fence"
  verify_written agent
  stop_agent
  verify_written file
  echo "tier write-back: the restart on the repaired tier fenced its journal ($fenced records not applied); $verified regions still verify"
  ;;

*)
  fail "unknown case $case_name"
  ;;
esac
