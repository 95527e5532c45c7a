# The REST calls of stream-jobs/scripts/flink-cluster.sh (Flink's REST API, /v1 of Flink 2.3),
# sourced by it: $rest_port and $dir are its variables.

# running_job: prints the id of the cluster's RUNNING job; exits 1 when there is none.
running_job() {
  local id
  id=$(curl -sf "127.0.0.1:$rest_port/jobs/overview" | grep -o '"jid":"[0-9a-f]*"[^}]*"state":"RUNNING"' \
    | head -1 | sed 's/"jid":"\([0-9a-f]*\)".*/\1/')
  [ -n "$id" ] || { echo "flink-cluster: no RUNNING job" >&2; exit 1; }
  echo "$id"
}

# stop_with_savepoint JOB: stops the job with a savepoint (POST /jobs/JOB/stop, no drain: timers
# stay in the savepoint), waits for it and prints its path; exits 1 when it fails (the reason on stderr).
stop_with_savepoint() {
  local job=$1 trigger body
  trigger=$(curl -sf -X POST -H 'Content-Type: application/json' \
    -d "{\"targetDirectory\": \"file://$dir/savepoints\", \"drain\": false}" \
    "127.0.0.1:$rest_port/jobs/$job/stop" | sed -n 's/.*"request-id":"\([^"]*\)".*/\1/p')
  [ -n "$trigger" ] || { echo "flink-cluster: job $job: stop-with-savepoint was not accepted" >&2; exit 1; }
  for _ in $(seq 120); do
    body=$(curl -sf "127.0.0.1:$rest_port/jobs/$job/savepoints/$trigger")
    case "$body" in
      *'"id":"COMPLETED"'*'"location":"'*)
        echo "$body" | sed 's/.*"location":"\([^"]*\)".*/\1/'
        return ;;
      *'"id":"COMPLETED"'*)
        echo "flink-cluster: job $job: savepoint failed: $body" >&2
        exit 1 ;;
    esac
    sleep 1
  done
  echo "flink-cluster: job $job: no savepoint within 120 s" >&2
  exit 1
}
