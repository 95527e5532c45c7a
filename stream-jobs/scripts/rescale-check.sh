#!/usr/bin/env bash
# The rescale check (issue 17): the stream jobs on the two-TaskManager session cluster of
# flink-cluster.sh, rescaled from parallelism 1 to 2 through a savepoint mid-stream, must write
# the same rows as a run at parallelism 1 throughout on the same input. Exits 1 on any difference.
#
#   stream-jobs/scripts/rescale-check.sh                   # the check
#   stream-jobs/scripts/rescale-check.sh --skip-savepoint  # restart at 2 without the savepoint: must fail
#
# Input (RescaleInput, the same bytes in both runs): six volumes' agent-shaped metrics and the real
# agent's reference batches of the real traces, in two halves. Run A: job at parallelism 1, first
# half, quiet; stop with a savepoint; job at parallelism 2 from it; second half, quiet. Run B: the
# same input and waits at parallelism 1, no stop. Each run has its own fresh test-profile stack
# (PostgreSQL, Kafka: TIERWISE_PORT_BASE, default 300) under $TIERWISE_STATE_DIR (default
# .local/rescale), stopped at the end. Compared: every table the jobs write (PostgresSinks.TABLES),
# every column but the times of the writes (updated_at, created_at, measured_at), exactly.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export TIERWISE_PROFILE=test TIERWISE_PORT_BASE=${TIERWISE_PORT_BASE:-300}
base=$(realpath -m "${TIERWISE_STATE_DIR:-.local/rescale}")
export TIERWISE_STATE_DIR=$base
source infra/local/env.sh
skip=false
[ "${1:-}" = --skip-savepoint ] && skip=true
tenant=5ca1ab1e-0017-4000-8000-000000000017
t0=$(( $(date +%s) / 3600 * 3600 - 3600 ))
cp=stream-jobs/target/tierwise-stream-jobs.jar:stream-jobs/target/test-classes
cluster() { TIERWISE_STATE_DIR=$base stream-jobs/scripts/flink-cluster.sh "$@"; }
rest=127.0.0.1:$((28081 + TIERWISE_PORT_BASE))
source stream-jobs/scripts/rescale-lib.sh
started=$SECONDS

npm run -s -w @tierwise/stream-jobs build
(cd stream-jobs && mvn -q -B test-compile)
trap 'cluster stop; stack_down' EXIT
cluster stop
rm -rf "$base/flink-cluster/checkpoints" "$base/flink-cluster/savepoints"
cluster start

# half N P: metrics of half N, then its reference batches (the first half after the priming batch of
# every volume), then until the tables are quiet.
half() {
  input "metrics-$1"
  wait_for "SELECT count(*) FROM volume_metrics_10s WHERE tenant_id = '$tenant'" $(($1 * 180))
  if [ "$1" = 1 ]; then
    input prime
    wait_for "SELECT count(DISTINCT volume_id) FROM volume_working_sets WHERE tenant_id = '$tenant'" 6
  fi
  input "refs-$1"
  wait_quiet
}

submit() { cluster run -d "$@" | grep -i 'submitted' || true; }
cancel() { curl -sf -X PATCH "$rest/jobs/$(cluster job)?mode=cancel" >/dev/null; sleep 2; }

echo "rescale-check: run A (parallelism 1, savepoint, parallelism 2), tenant $tenant, t0 $t0"
stack_up a
submit -p 1
half 1
savepoint=$(cluster stop-with-savepoint)
echo "rescale-check: stopped with savepoint $savepoint"
if $skip; then
  echo "rescale-check: --skip-savepoint: restarting at parallelism 2 WITHOUT the savepoint"
  submit -p 2
else
  submit -p 2 -s "$savepoint"
fi
slots=$(curl -sf "$rest/overview" | grep -o '"slots-total":[0-9]*,"slots-available":[0-9]*')
echo "rescale-check: running at parallelism 2: $slots"
half 2
cancel
dump "$base/out/a"
stack_down

echo "rescale-check: run B (parallelism 1 throughout)"
stack_up b
submit -p 1
half 1
half 2
cancel
dump "$base/out/b"
stack_down

differ=0
printf '%-26s %8s %8s  %s\n' table "rows A" "rows B" verdict
for t in $tables; do
  a=$base/out/a/$t.csv b=$base/out/b/$t.csv
  verdict=equal
  cmp -s "$a" "$b" || { verdict=DIFFERENT; differ=1; }
  [ "$(wc -l < "$a")" -gt 1 ] || { verdict="$verdict, NO ROWS"; differ=1; }
  printf '%-26s %8d %8d  %s\n' "$t" $(($(wc -l < "$a") - 1)) $(($(wc -l < "$b") - 1)) "$verdict"
done
echo "rescale-check: $((SECONDS - started)) s; dumps in $base/out (diff -u a/TABLE.csv b/TABLE.csv)"
if [ "$differ" = 1 ]; then echo "rescale-check: FAIL: the outputs differ"; exit 1; fi
echo "rescale-check: PASS: every table equal after the rescale from parallelism 1 to 2"
