#!/usr/bin/env bash
# A network partition between a WB+1 owner and its peer (docs/write-back.md
# "Owner loss"): the peer runs in a network namespace the test creates, linked
# to the owner by a veth pair; the link is cut under fio by setting both ends
# down (`ip link`; this kernel has no netem qdisc for `tc netem loss 100%`).
#
# Usage: nbd_partition_test.sh <tierwise-agent binary>
# Checks: no fio write fails and none waits much longer than the
# acknowledgement timeout (500 ms; the fall-back then destages the backlog);
# the owner falls back to write-through and moves to the next epoch; fio goes
# on writing every region again; the link comes back and the owner is then
# SIGKILLed: the peer must drop its replicas of the old epoch, not take the
# volume over and apply them; every region verifies on the datastore alone.
# Needs root (network namespaces); exits 77 (skipped) without them.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

agent=$1
work=$(mktemp -d /tmp/tierwise-partition.XXXXXX)
sock=$work/nbd.sock
agent_pid=
peer_pid=
loop_pid=
ns=twpart$$
host_if=twh$$
peer_if=twp$$
net=10.$((200 + $$ % 50)).$(($$ % 250)).
regions=16
region_bytes=$((2 << 20))
# shellcheck source=nbd_fio_lib.sh
source "$here/nbd_fio_lib.sh"

cleanup() {
  for p in $loop_pid $agent_pid $peer_pid; do kill -KILL "$p" 2>/dev/null || true; done
  ip link del "$host_if" 2>/dev/null || true
  ip netns del "$ns" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work"

[[ $(id -u) -eq 0 ]] || { echo "SKIP: needs root for a network namespace"; exit 77; }
ip netns add "$ns" 2>/dev/null || { echo "SKIP: cannot create a network namespace"; exit 77; }
ip link add "$host_if" type veth peer name "$peer_if"
ip link set "$peer_if" netns "$ns"
ip addr add "${net}1/30" dev "$host_if"
ip link set "$host_if" up
ip -n "$ns" addr add "${net}2/30" dev "$peer_if"
ip -n "$ns" link set "$peer_if" up
ip -n "$ns" link set lo up

ip netns exec "$ns" "$agent" peer --listen "${net}2:0" --port-file "$work/peer.port" >"$work/peer.log" 2>&1 &
peer_pid=$!
for _ in $(seq 100); do [[ -s $work/peer.port ]] && break; sleep 0.05; done
[[ -s $work/peer.port ]] || fail "the peer did not listen in the namespace"

cat >"$work/volumes.json" <<JSON
{"listen": "unix:$sock",
 "volumes": [{"name": "wb", "datastore": "$work/wb.img", "size": "32MiB", "mode": "write-back",
              "tier": {"file": "$work/wb.tier", "size": "8MiB"}, "journal_entries": 1024,
              "destage_rate": "2MiB", "peers": ["${net}2:$(cat "$work/peer.port")"], "lease_ms": 1000}]}
JSON

echo 0 >"$work/next_k"
: >"$work/done"
: >"$work/failed"
start_agent
grep -q "write-back (WB+1" "$work/agent.log" || fail "the volume did not open in WB+1"
start_jobs
sleep 1.5
cut_k=$(cat "$work/next_k")
ip link set "$host_if" down
ip -n "$ns" link set "$peer_if" down
for _ in $(seq 100); do grep -q "falling back to write-through" "$work/agent.log" && break; sleep 0.05; done
grep -q "peer failed" "$work/agent.log" || fail "the owner did not fail the unreachable peer"
grep -q "falling back to write-through" "$work/agent.log" || fail "no fall-back to write-through"
for _ in $(seq 200); do grep -q "replicas of epoch [0-9]* are obsolete" "$work/agent.log" && break; sleep 0.05; done
grep -q "replicas of epoch [0-9]* are obsolete" "$work/agent.log" || fail "the owner did not move to the next epoch"
# Write every region again while cut off, then let the link come back.
for _ in $(seq 600); do (( $(cat "$work/next_k") >= cut_k + regions + 1 )) && break; sleep 0.1; done
(( $(cat "$work/next_k") >= cut_k + regions + 1 )) || fail "fio made no progress while the peer was cut off"
ip link set "$host_if" up
ip -n "$ns" link set "$peer_if" up
sleep 1
stop_jobs
[[ ! -s $work/failed ]] || { cat "$work/failed" >&2; fail "a write failed during the partition"; }
# The slowest write of any job: at most the acknowledgement timeout, plus the drain.
slowest_ms=$(grep -hE "^ +clat \((usec|msec|nsec)\)" "$work"/fio-*.txt | /usr/bin/python3 -c '
import re, sys
scale = {"nsec": 1e-6, "usec": 1e-3, "msec": 1.0}
worst = 0.0
for line in sys.stdin:
    unit = re.search(r"clat \((\w+)\)", line).group(1)
    m = re.search(r"max=\s*([0-9.]+)(k?)", line)
    value = float(m.group(1)) * (1000 if m.group(2) else 1)
    worst = max(worst, value * scale[unit])
print(int(worst))')
(( slowest_ms < 2500 )) || fail "a write waited ${slowest_ms} ms, far beyond the 500 ms acknowledgement timeout"
# The owner dies with the link back: the peer must drop, not apply, its old replicas.
kill_agent
for _ in $(seq 100); do grep -q "dropping [0-9]* records of epoch" "$work/peer.log" && break; sleep 0.05; done
grep -q "dropping [0-9]* records of epoch" "$work/peer.log" || { cat "$work/peer.log" >&2; fail "the peer did not drop its replicas of the old epoch"; }
sleep 1.5  # longer than lease_ms: a peer that was going to take over would have
grep -q "took over" "$work/peer.log" && { cat "$work/peer.log" >&2; fail "the peer took the volume over and applied old replicas"; }
for r in $(seq 0 $((regions - 1))); do
  k=$(last_job_of "$r")
  [[ -n $k ]] && verify_region "$r" "$k" --ioengine=psync --filename="$work/wb.img"
done
echo "partition: the owner fell back to write-through (slowest write ${slowest_ms} ms), moved to the next epoch; the peer dropped its old replicas ($(grep -o "dropping [0-9]* records" "$work/peer.log")); 16 regions verify on the datastore alone"
