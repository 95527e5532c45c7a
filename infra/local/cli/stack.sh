# `./tierwise up|down|status`: the local stack's processes (sourced).
#
# Start order: postgres, kafka, migrations, stream-jobs (Flink), ingest, api,
# smtp-sink (the development mailbox), notifier, web; `down` stops in reverse. Each service is a background process with
# run/<name>.pid and logs/<name>.log (see lib.sh); `up` waits until each one
# answers its readiness probe. TW_STARTED lists what this invocation started,
# so an interrupted demo can stop exactly that.

STACK_SERVICES=(stream-jobs ingest api smtp-sink notifier web)
STACK_UP_STEPS=$((SETUP_STEPS + 3 + ${#STACK_SERVICES[@]}))
STREAM_JOBS_JAR=stream-jobs/target/tierwise-stream-jobs.jar
# Logged by the jar once its Flink job is RUNNING (TierwiseJobs.RUNNING_LINE).
STREAM_JOBS_RUNNING_LINE="tierwise-stream-jobs: running"
TW_STARTED=()

# Per service: how to start it, how to tell it is ready, how long to wait (s).
# It runs a copy of the jar: a rebuild rewrites target/*.jar in place, which
# would break the classes a running JVM still loads from it.
start_stream_jobs() {
  [ -f "$STREAM_JOBS_JAR" ] || tw_die "$STREAM_JOBS_JAR is missing; build it with ./tierwise setup"
  mkdir -p "$TW_RUN_DIR"
  cp "$STREAM_JOBS_JAR" "$TW_RUN_DIR/stream-jobs.jar"
  # Flink's OpenTelemetry metric reporter is a plugin (used when OTEL_EXPORTER_OTLP_ENDPOINT is set).
  # The heap holds the jobs' state: TIERWISE_STREAM_JOBS_HEAP (docs/deployment.md), -Xms = -Xmx as
  # Flink starts a TaskManager (Flink docs, "Set up Flink's Process Memory", JVM Parameters). The
  # parallel collector: that state is long-lived, and a throughput collector keeps no remembered
  # sets and runs no concurrent marking over it; its full collections stop the jobs, which
  # freshness allows (docs/fleet-scale.md, "Memory").
  tw_start stream-jobs env FLINK_PLUGINS_DIR="$TIERWISE_ROOT/stream-jobs/target/plugins" \
    java "-Xms$TIERWISE_STREAM_JOBS_HEAP" "-Xmx$TIERWISE_STREAM_JOBS_HEAP" -XX:+UseParallelGC -jar "$TW_RUN_DIR/stream-jobs.jar"
}
# tw_start begins a fresh log per start, so an old run's line cannot match.
ready_stream_jobs() { grep -qF "$STREAM_JOBS_RUNNING_LINE" "$TW_LOG_DIR/stream-jobs.log" 2>/dev/null; }
timeout_stream_jobs=180

start_ingest() { tw_start ingest npm run -s -w @tierwise/ingest start; }
ready_ingest() { tw_http_ok "$TIERWISE_INGEST_URL/healthz"; }
timeout_ingest=60

start_api() { tw_start api npm run -s -w @tierwise/api start; }
ready_api() { tw_http_ok "$TIERWISE_API_URL/healthz"; }
timeout_api=60

# Development only: accepts every message on 127.0.0.1, stores it in $TIERWISE_STATE_DIR/mail.
start_smtp_sink() { tw_start smtp-sink npm run -s -w @tierwise/notifier smtp-sink; }
ready_smtp_sink() { tw_port_open "$TIERWISE_SMTP_PORT"; }
timeout_smtp_sink=30

start_notifier() { tw_start notifier npm run -s -w @tierwise/notifier start; }
ready_notifier() { tw_http_ok "http://127.0.0.1:$TIERWISE_NOTIFIER_PORT/healthz"; }
timeout_notifier=60

start_web() { tw_start web npm run -s -w @tierwise/web start; }
ready_web() { tw_http_ok "$TIERWISE_WEB_URL/login"; }
timeout_web=90

# stack_service NAME: start NAME unless it runs, then wait for its probe.
stack_service() {
  local fn=${1//-/_} timeout
  timeout="timeout_$fn"
  if ! tw_pid "$1" >/dev/null; then
    "start_$fn"
    TW_STARTED+=("$1")
  else
    echo "      $1: already running (pid $(tw_pid "$1"))"
  fi
  tw_wait_ready "$1" "${!timeout}" "ready_$fn" || tw_die "$1 is not ready"
}

# stack_infra NAME: postgres or kafka through its infra/local script.
stack_infra() {
  "$TIERWISE_ROOT/infra/local/$1.sh" status >/dev/null || TW_STARTED+=("$1")
  "$TIERWISE_ROOT/infra/local/$1.sh" start | sed 's/^/      /'
}

stack_migrate() {
  npm run -s -w @tierwise/db migrate | sed 's/^/      /'
}

stack_up_steps() {
  setup_steps
  tw_step "Starting PostgreSQL (127.0.0.1:$TIERWISE_PG_PORT)" stack_infra postgres
  tw_step "Starting Kafka (127.0.0.1:$TIERWISE_KAFKA_PORT)" stack_infra kafka
  tw_step "Applying database migrations" stack_migrate
  tw_step "Starting the Flink jobs (stream-jobs, embedded MiniCluster)" stack_service stream-jobs
  tw_step "Starting ingest ($TIERWISE_INGEST_URL)" stack_service ingest
  tw_step "Starting the API ($TIERWISE_API_URL)" stack_service api
  tw_step "Starting the development mailbox ($TIERWISE_SMTP_URL, mail in $TIERWISE_STATE_DIR/mail)" stack_service smtp-sink
  tw_step "Starting the notifier (health on 127.0.0.1:$TIERWISE_NOTIFIER_PORT)" stack_service notifier
  tw_step "Starting the portal ($TIERWISE_WEB_URL)" stack_service web
}

# stack_stop NAME: stop one process of the stack, whatever started it.
stack_stop() {
  case $1 in
    postgres | kafka) "$TIERWISE_ROOT/infra/local/$1.sh" stop ;;
    *) tw_stop "$1" ;;
  esac
}

# Agent replays still running (their pid files are run/agent-*.pid).
stack_down_replays() {
  local file
  for file in "$TW_RUN_DIR"/agent-*.pid; do
    [ -e "$file" ] || continue
    tw_stop "$(basename "$file" .pid)"
  done
}

# Replays, then the services in reverse start order, then kafka and postgres.
stack_down() {
  local i
  stack_down_replays
  for ((i = ${#STACK_SERVICES[@]} - 1; i >= 0; i--)); do
    if tw_pid "${STACK_SERVICES[i]}" >/dev/null; then
      tw_stop "${STACK_SERVICES[i]}"
    fi
  done
  stack_stop kafka
  stack_stop postgres
}

# stack_stop_started: stop what this invocation started, newest first.
stack_stop_started() {
  local i
  for ((i = ${#TW_STARTED[@]} - 1; i >= 0; i--)); do
    stack_stop "${TW_STARTED[i]}" || true
  done
  TW_STARTED=()
}

stack_status() {
  local name pid fn state
  echo "Tierwise stack, profile $TIERWISE_PROFILE (state in $TIERWISE_STATE_DIR)"
  "$TIERWISE_ROOT/infra/local/postgres.sh" status || true
  "$TIERWISE_ROOT/infra/local/kafka.sh" status || true
  for name in "${STACK_SERVICES[@]}"; do
    fn=${name//-/_}
    if pid=$(tw_pid "$name"); then
      if "ready_$fn"; then state="ready"; else state="not ready (see $TW_LOG_DIR/$name.log)"; fi
      echo "$name: running, pid $pid, $state"
    else
      echo "$name: stopped"
    fi
  done
  for name in "$TW_RUN_DIR"/agent-*.pid; do
    [ -e "$name" ] || continue
    name=$(basename "$name" .pid)
    pid=$(tw_pid "$name") && echo "$name: running, pid $pid"
  done
  return 0
}
