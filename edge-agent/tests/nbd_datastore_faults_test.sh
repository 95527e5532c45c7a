#!/usr/bin/env bash
# Datastore failures under fio (docs/write-back.md "Datastore failures"): the
# datastore is a loop device over a file of a FUSE file system
# (tests/faulty_fs.py) that fails writes with EIO or ENOSPC, fails flushes with
# EIO, or stalls, on demand; so the agent gets the kernel's own errors.
#
# Usage: nbd_datastore_faults_test.sh <tierwise-agent binary> <case>
# Cases:
#   write_through  fio jobs write while the datastore fails writes with EIO,
#                  then ENOSPC, then stalls 1 s per write: the jobs that hit a
#                  failure see that errno (the client gets the datastore's
#                  error) and are run again; every region written verifies
#                  through the agent and on the datastore file alone.
#   write_back     the same faults: no fio job fails (the journal acknowledges;
#                  the destager logs the failure once, retries with back-off and
#                  recovers); every region written verifies through the agent,
#                  and on the datastore file alone once a restart's recovery
#                  wrote the journal. Then a failed datastore flush: destaging
#                  stops and the journal keeps everything; the agent is killed
#                  and restarts, recovery writes the journal again; the same
#                  checks. Each verify runs right after the faults, before any
#                  later job could overwrite what was written under them.
# Job k writes region k % 16 of the 32 MiB volume (tests/nbd_fio_lib.sh).
# Needs root (loop devices, FUSE); exits 77 (skipped) without them.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

agent=$1
case_name=$2
work=$(mktemp -d /tmp/tierwise-ds-faults.XXXXXX)
sock=$work/nbd.sock
agent_pid=
fs_pid=
loop=
loop_pid=
regions=16
region_bytes=$((2 << 20))
# shellcheck source=nbd_fio_lib.sh
source "$here/nbd_fio_lib.sh"

cleanup() {
  for p in $loop_pid $agent_pid; do kill -KILL "$p" 2>/dev/null || true; done
  [[ -n $loop ]] && losetup -d "$loop" 2>/dev/null
  mountpoint -q "$work/mnt" 2>/dev/null && { fusermount -u "$work/mnt" 2>/dev/null || umount -l "$work/mnt"; }
  [[ -n $fs_pid ]] && kill "$fs_pid" 2>/dev/null
  rm -rf "$work"
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

# The datastore: back/ds.img seen through the faulty FUSE mount, under a loop device.
mkdir -p back mnt
truncate -s 32M back/ds.img
/usr/bin/python3 "$here/faulty_fs.py" back mnt "$work/faults.json" >"$work/fs.log" 2>&1 &
fs_pid=$!
for _ in $(seq 100); do mountpoint -q mnt && break; sleep 0.05; done
mountpoint -q mnt || { cat "$work/fs.log" >&2; skip "cannot mount FUSE here"; }
loop=$(losetup -f --show --direct-io=off "$work/mnt/ds.img") || skip "no free loop device"

faults() {
  echo "$1" >"$work/faults.json.tmp"
  mv "$work/faults.json.tmp" "$work/faults.json"
}

write_config() {
  local mode=$1 wb_keys=
  [[ $mode == write-back ]] && wb_keys=', "journal_entries": 1024'
  cat >"$work/volumes.json" <<JSON
{"listen": "unix:$sock",
 "volumes": [{"name": "wb", "datastore": "$loop", "mode": "$mode",
              "tier": {"file": "$work/wb.tier", "size": "8MiB"}$wb_keys}]}
JSON
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
  local r k n=0
  for r in $(seq 0 $((regions - 1))); do
    k=$(last_job_of "$r")
    [[ -n $k ]] || continue
    if [[ $1 == agent ]]; then
      verify_region "$r" "$k" --ioengine=nbd --uri="nbd+unix:///wb?socket=$sock" --iodepth=16
    else
      verify_region "$r" "$k" --ioengine=psync --filename="$work/back/ds.img"
    fi
    n=$((n + 1))
  done
  (( n >= 4 )) || fail "only $n regions were written: too few jobs ran"
  verified=$n
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
write_through)
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

write_back)
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

*)
  fail "unknown case $case_name"
  ;;
esac
