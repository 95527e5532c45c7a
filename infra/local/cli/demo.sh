# `./tierwise demo|replay`: seed a demo tenant, replay traces through the
# edge agent into the running stack, wait for the results, print them (sourced).

DEMO_TENANT="$TIERWISE_STATE_DIR/demo-tenant.json"
DEMO_KEY_FILE="$TIERWISE_STATE_DIR/agent.key"
DEMO_REPLAY_DIR="$TIERWISE_STATE_DIR/replays"
AGENT_BIN=edge-agent/build/tierwise-agent
DEMO_TRACES=(cloudphysics_w_sample.vscsi tencent_cbs_sample50k.csv.bz2)
# How long results may take to appear after a replay (s); override for slow machines.
DEMO_WAIT_S=${TIERWISE_DEMO_WAIT_S:-900}
DEMO_SUMMARIES=()
# The demo tenant's e-mail channel: the notifier sends its recommendations here, and the
# development mailbox (smtp-sink) stores them in $TIERWISE_STATE_DIR/mail.
DEMO_EMAIL=demo@tierwise.local
# How long the notifier may take to send them after the summary (s).
DEMO_MAIL_WAIT_S=${TIERWISE_DEMO_MAIL_WAIT_S:-60}

# A tenant of its own per demo run, so the totals the demo waits for are
# exactly what it replayed, with an e-mail channel to $DEMO_EMAIL and a portal
# login ($DEMO_EMAIL, owner, a new random password each run). Its credentials
# (secrets) are kept 0600.
demo_seed() {
  local out line
  out=$(npm run -s -w @tierwise/api seed -- --tenant-name demo --email "$DEMO_EMAIL" --login "$DEMO_EMAIL") || tw_die "seeding the demo tenant failed"
  line=$(printf '%s\n' "$out" | grep '^{' | tail -n 1)
  node -e '
    const t = JSON.parse(process.argv[1]);
    for (const k of ["tenant_id", "agent_id", "agent_token", "api_key", "login_email", "login_password"])
      if (typeof t[k] !== "string" || t[k] === "") throw new Error(`seed output lacks "${k}"`);' "$line" \
    || tw_die "the seed command did not print {tenant_id, agent_id, agent_token, api_key, login_email, login_password}; it printed: $out"
  (umask 077 && printf '%s\n' "$line" >"$DEMO_TENANT")
  echo "      tenant $(node -p 'require(process.argv[1]).tenant_id' "$DEMO_TENANT") saved in $DEMO_TENANT; its recommendations are e-mailed to $DEMO_EMAIL"
}

# The portal login of the demo tenant, for the last line of the demo.
demo_login_line() {
  echo "Sign in to the portal $TIERWISE_WEB_URL as $(demo_tenant_field login_email), password $(demo_tenant_field login_password) (kept in $DEMO_TENANT)."
}

demo_tenant_field() {
  node -p 'require(process.argv[1])[process.argv[2]]' "$DEMO_TENANT" "$1"
}

# demo_replay TRACE: replay one trace file through the agent (a tracked
# background process, so `down` and Ctrl-C stop it) and wait for it to end.
demo_replay() {
  local trace=$1 stem name summary pid status
  [ -r "$trace" ] || tw_die "trace file $trace does not exist or is not readable"
  [ -x "$AGENT_BIN" ] || tw_die "$AGENT_BIN is missing; build it with ./tierwise setup"
  stem=$(basename "$trace")
  name="agent-replay-${stem%%.*}"
  summary="$DEMO_REPLAY_DIR/${stem%%.*}.json"
  mkdir -p "$DEMO_REPLAY_DIR"
  rm -f "$summary" "${summary%.json}.volumes.json"
  # The token travels in the environment (TIERWISE_AGENT_TOKEN, read by the
  # agent like --token), not on a command line every local user can read. The
  # demo host's volumes share one tier: cluster demo-cluster (the Clusters page).
  tw_start "$name" env TIERWISE_AGENT_TOKEN="$(demo_tenant_field agent_token)" \
    "$AGENT_BIN" replay "$trace" --ingest "$TIERWISE_INGEST_URL" --key-file "$DEMO_KEY_FILE" \
    --send-names --host-name demo-host --cluster demo-cluster --json-summary "$summary"
  pid=$(tw_pid "$name")
  status=0
  wait "$pid" || status=$?
  rm -f "$TW_RUN_DIR/$name.pid"
  # Exit 3: the replay finished but skipped malformed records (listed in the log).
  if [ "$status" -eq 3 ]; then
    echo "      warning: $trace has malformed records, skipped; see $TW_LOG_DIR/$name.log"
  elif [ "$status" -ne 0 ] || [ ! -s "$summary" ]; then
    tw_log_tail "$TW_LOG_DIR/$name.log"
    tw_die "replay of $trace failed (exit $status); see $TW_LOG_DIR/$name.log"
  fi
  # The replay summary counts volumes; their names (which the API shows as
  # display names) come from the agent's exact trace inspection.
  status=0
  "$AGENT_BIN" inspect "$trace" --json >"${summary%.json}.volumes.json" 2>/dev/null || status=$?
  [ "$status" -eq 0 ] || [ "$status" -eq 3 ] || tw_die "tierwise-agent inspect $trace failed (exit $status)"
  node "$TIERWISE_ROOT/infra/local/demo-summary.mjs" --replay-line "$summary" | sed 's/^/      /'
  DEMO_SUMMARIES+=("$summary")
}

# What the tenant held before the replays ({"ops", "refs"}): the wait adds
# what the replays sent.
demo_baseline() {
  DEMO_BASELINE=$(node "$TIERWISE_ROOT/infra/local/demo-wait.mjs" --baseline)
  echo "      before the replay the tenant holds $DEMO_BASELINE (I/Os, sampled references)"
}

demo_wait() {
  tw_wait_for node "$TIERWISE_ROOT/infra/local/demo-wait.mjs" --baseline-json "$DEMO_BASELINE" \
    --timeout-s "$DEMO_WAIT_S" "${DEMO_SUMMARIES[@]}"
}

demo_print() {
  node "$TIERWISE_ROOT/infra/local/demo-summary.mjs" "${DEMO_SUMMARIES[@]}"
}

# Bounded wait for the notifier's recommendation e-mails; warns, never fails the demo.
demo_mail() {
  tw_wait_for node "$TIERWISE_ROOT/infra/local/demo-mail.mjs" --timeout-s "$DEMO_MAIL_WAIT_S" \
    --notifier-log "$TW_LOG_DIR/notifier.log" \
    || echo "warning: could not check the recommendation e-mails; see $TW_LOG_DIR/notifier.log"
}

demo_steps() {
  local trace
  stack_up_steps
  tw_step "Seeding a demo tenant" demo_seed
  demo_baseline
  for trace in "${DEMO_TRACES[@]}"; do
    tw_step "Replaying $trace through the edge agent" demo_replay "$TIERWISE_TRACES_DIR/$trace"
  done
  tw_step "Waiting for working sets, miss ratio curves and recommendations" demo_wait
  tw_step "Summarising" demo_print
  tw_step "Waiting for the recommendation e-mail (notifier -> $TIERWISE_SMTP_URL)" demo_mail
}

# ./tierwise replay TRACE: into the running stack, as the saved demo tenant.
replay_steps() {
  local trace=$1
  [ -s "$DEMO_TENANT" ] || tw_die "no demo tenant yet ($DEMO_TENANT); run ./tierwise demo first"
  tw_http_ok "$TIERWISE_API_URL/healthz" && tw_http_ok "$TIERWISE_INGEST_URL/healthz" \
    || tw_die "the stack is not running (api $TIERWISE_API_URL, ingest $TIERWISE_INGEST_URL); start it with ./tierwise up"
  demo_baseline
  tw_step "Replaying $(basename "$trace") through the edge agent" demo_replay "$trace"
  tw_step "Waiting for working sets, miss ratio curves and recommendations" demo_wait
  tw_step "Summarising" demo_print
}
