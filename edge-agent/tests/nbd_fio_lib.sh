# Helpers of the NBD tests that drive `tierwise-agent serve` with fio
# (nbd_writeback_crash_test.sh, nbd_device_faults_test.sh). The caller sets
# agent (the binary), work (its directory), sock (the NBD socket, volume "wb"),
# regions and region_bytes (job k writes region k % regions); the job loop
# keeps its state in $work/next_k, $work/done and $work/failed.

fail() {
  echo "FAIL: $*" >&2
  [[ -f $work/agent.log ]] && { echo "--- agent log (last 40 lines)" >&2; tail -40 "$work/agent.log" >&2; }
  exit 1
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

# start_peer [extra peer options]: a `tierwise-agent peer` (peer_pid) on the
# port of its first start, if any ($work/peer.port).
start_peer() {
  local port=0
  [[ -s $work/peer.port ]] && port=$(cat "$work/peer.port")
  rm -f "$work/peer.port"
  "$agent" peer --listen "127.0.0.1:$port" --port-file "$work/peer.port" "$@" >>"$work/peer.log" 2>&1 &
  peer_pid=$!
  for _ in $(seq 100); do [[ -s $work/peer.port ]] && break; sleep 0.05; done
  [[ -s $work/peer.port ]] || fail "peer did not listen"
}

kill_agent() {
  kill -KILL "$agent_pid"
  wait "$agent_pid" 2>/dev/null || true
  agent_pid=
  rm -f "$sock"
}

# The data of job k: each block holds k (32 bits) and its own offset, repeated.
job_pattern() { printf '0x%08x%%o' "$1"; }

# fio_job <k> [extra fio options]: region k % 16 with seed k.
fio_job() {
  local k=$1
  shift
  fio --name="region-$k" --ioengine=nbd --uri="nbd+unix:///wb?socket=$sock" --rw=randwrite \
    --bsrange=4k-64k --iodepth=16 --offset=$(( (k % regions) * region_bytes )) --size=$region_bytes \
    --randseed=$k --verify=pattern --verify_pattern="$(job_pattern "$k")" --verify_fatal=1 --do_verify=0 "$@"
}

# verify_region <r> <k> <fio target options...>: fio --verify_only of region r
# against job k's layout and data. One job per fio run: fio derives a job's
# random offsets and sizes from its seed *and* its place in the run, so the
# layout of a job run alone (as every write job is) is only repeated alone.
verify_region() {
  local r=$1 k=$2
  shift 2
  local out=$work/fio-verify-$r.txt rc=0
  fio --name="verify-$r" "$@" --rw=randwrite --bsrange=4k-64k --offset=$((r * region_bytes)) \
    --size=$region_bytes --randseed="$k" --verify=pattern --verify_pattern="$(job_pattern "$k")" \
    --verify_only=1 --verify_fatal=0 --output="$out" >/dev/null 2>"$out.err" || rc=$?
  if (( rc != 0 )) || ! grep -q "err= 0" "$out" || ! grep -q "READ: bw=.*io=2048KiB" "$out"; then
    cat "$out" "$out.err" >&2
    fail "region $r (job $k): verify errors (fio exit $rc)"
  fi
}

# verify_regions <skip> <fio target options...>: verify_region of every region
# some job completed, but region <skip> (-1: none); sets `verified` to their count.
verify_regions() {
  local skip=$1 r k
  shift
  verified=0
  for r in $(seq 0 $((regions - 1))); do
    k=$(last_job_of "$r")
    [[ -z $k ]] || (( r == skip )) && continue
    verify_region "$r" "$k" "$@"
    verified=$((verified + 1))
  done
}

# The last job k with k % 16 == r, or nothing.
last_job_of() { awk -v r="$1" -v n="$regions" '$1 % n == r' "$work/done" | sort -n | tail -1; }


# Runs jobs from next_k on, each until it completes (a failed job is logged
# with fio's error and run again), until $work/stop exists. In the background.
job_loop() {
  local k
  k=$(cat "$work/next_k")
  while [[ ! -e $work/stop ]]; do
    if fio_job "$k" --output="$work/fio-$k.txt" >/dev/null 2>&1; then
      echo "$k" >>"$work/done"
      k=$((k + 1))
      echo "$k" >"$work/next_k"
    else
      { echo "job $k:"; grep -hoE "error=[^)]*|err=[^:]*:[^)]*" "$work/fio-$k.txt"; } >>"$work/failed" 2>/dev/null || true
      sleep 0.2
    fi
  done
}

start_jobs() {
  rm -f "$work/stop"
  job_loop &
  loop_pid=$!
}

stop_jobs() {
  touch "$work/stop"
  wait "$loop_pid" || true
  loop_pid=
}
