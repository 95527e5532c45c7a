#!/usr/bin/env bash
# Local PostgreSQL 15 for the Tierwise stack (profile from TIERWISE_PROFILE).
#
#   infra/local/postgres.sh start    initialise on first use, start, create roles + database
#   infra/local/postgres.sh stop     fast shutdown
#   infra/local/postgres.sh status   exit 0 running, 3 stopped
#   infra/local/postgres.sh psql [psql args]   psql as tierwise_owner on database tierwise
#
# Data: $TIERWISE_STATE_DIR/postgres, socket dir: $TIERWISE_STATE_DIR/run/postgres,
# log: $TIERWISE_STATE_DIR/logs/postgres.log. The server runs as the `postgres`
# user when this script runs as root, else as the calling user. When that user
# cannot reach the state directory (root's checkout in a 0700 folder: root's
# home on Debian, a `mktemp -d` folder), the three live in
# /var/lib/tierwise-postgres/<hash of the state directory> instead, and
# $TIERWISE_STATE_DIR/postgres is a link to its data: removing the state
# directory (a fresh start) removes that data on the next start too.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/env.sh"
source "$here/lib.sh"
TW_NAME=postgres.sh

PG_BIN=/usr/lib/postgresql/15/bin
PG_LINK="$TIERWISE_STATE_DIR/postgres"
PG_DATA="$PG_LINK"
PG_SOCKET_DIR="$TW_RUN_DIR/postgres"
PG_LOG="$TW_LOG_DIR/postgres.log"
PG_HOME=""

# server_dirs: moves the server's directories out of a state directory its OS
# user cannot reach (see the header). Needs the postgres user (after ensure_binaries).
server_dirs() {
  [ "$(id -u)" -eq 0 ] && id postgres >/dev/null 2>&1 || return 0
  mkdir -p "$TIERWISE_STATE_DIR"
  runuser -u postgres -- test -x "$TIERWISE_STATE_DIR" 2>/dev/null && return 0
  PG_HOME=/var/lib/tierwise-postgres/$(printf '%s' "$TIERWISE_STATE_DIR" | sha256sum | cut -c1-16)
  PG_DATA="$PG_HOME/data"
  PG_SOCKET_DIR="$PG_HOME/run"
  PG_LOG="$PG_HOME/postgres.log"
}

# as_server CMD...: run CMD as the server's OS user.
as_server() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

# superuser_psql ARGS...: psql as the bootstrap superuser over the private socket.
superuser_psql() {
  as_server "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PG_SOCKET_DIR" -p "$TIERWISE_PG_PORT" -U postgres "$@"
}

running() {
  as_server "$PG_BIN/pg_ctl" status -D "$PG_DATA" >/dev/null 2>&1
}

ensure_binaries() {
  [ -x "$PG_BIN/postgres" ] && return 0
  [ "$(id -u)" -eq 0 ] || tw_die "PostgreSQL 15 is not installed ($PG_BIN/postgres missing); run: sudo apt-get install -y postgresql-15"
  echo "postgres: installing postgresql-15 from apt"
  flock /tmp/apt.lock apt-get install -y -q postgresql-15 >/dev/null \
    || tw_die "apt-get install postgresql-15 failed"
}

# Directories the server writes to belong to its OS user; the socket dir is
# private (0700), so only that user and root can use the trusting socket.
prepare_dirs() {
  if [ -n "$PG_HOME" ]; then
    # The state directory was removed (or never had the link): its data goes with it.
    [ -L "$PG_LINK" ] || rm -rf "$PG_HOME"
    mkdir -p "$PG_HOME" "$TW_LOG_DIR"
    chmod 0755 /var/lib/tierwise-postgres "$PG_HOME"
    ln -sfn "$PG_DATA" "$PG_LINK"
    ln -sfn "$PG_LOG" "$TW_LOG_DIR/postgres.log"
  fi
  mkdir -p "$PG_DATA" "$PG_SOCKET_DIR" "$TW_LOG_DIR"
  touch "$PG_LOG"
  if [ "$(id -u)" -eq 0 ]; then
    chown postgres:postgres "$PG_DATA" "$PG_SOCKET_DIR" "$PG_LOG"
  fi
  chmod 0700 "$PG_DATA" "$PG_SOCKET_DIR"
}

init_cluster() {
  [ -f "$PG_DATA/PG_VERSION" ] && return 0
  echo "postgres: initialising $PG_DATA"
  as_server "$PG_BIN/initdb" -D "$PG_DATA" -U postgres --encoding=UTF8 --locale=C.UTF-8 \
    --auth=trust >"$PG_DATA.initdb.log" 2>&1 \
    || { tw_log_tail "$PG_DATA.initdb.log"; tw_die "initdb failed; see $PG_DATA.initdb.log"; }
  rm -f "$PG_DATA.initdb.log"
  echo "include_if_exists = 'tierwise.conf'" >>"$PG_DATA/postgresql.conf"
}

# Settings are rewritten on every start, so they follow env.sh.
write_config() {
  cat >"$PG_DATA/tierwise.conf" <<EOF
# Written by infra/local/postgres.sh on every start; edits are lost.
listen_addresses = '127.0.0.1'
port = $TIERWISE_PG_PORT
unix_socket_directories = '$PG_SOCKET_DIR'
max_connections = 100
shared_buffers = 128MB
# Room for the 5-minute checkpoint under a fleet's upserts: checkpoints on max_wal_size's 1 GB
# default came more often, each writing full-page images again (docs/fleet-scale.md, item 2).
max_wal_size = 4GB
log_min_duration_statement = 1000
# Extra settings for this start only (a benchmark's diagnostics: bench/fleet --pg-statements).
${TIERWISE_PG_SETTINGS:-}
EOF
  cat >"$PG_DATA/pg_hba.conf" <<'EOF'
# Written by infra/local/postgres.sh. A local development stack: the server
# listens on 127.0.0.1 only and its socket directory is private (0700), so
# trust authentication is confined to this machine. Never use this file for a
# server reachable from a network.
# TYPE  DATABASE  USER  ADDRESS       METHOD
local   all       all                 trust
host    all       all   127.0.0.1/32  trust
EOF
  if [ "$(id -u)" -eq 0 ]; then
    chown postgres:postgres "$PG_DATA/tierwise.conf" "$PG_DATA/pg_hba.conf"
  fi
}

# Roles and database from the schema contract (db/migrations/*_spine.sql).
# Idempotent: each statement runs only when its object is missing.
bootstrap_roles() {
  superuser_psql -d postgres <<'SQL'
SELECT format('CREATE ROLE %I LOGIN', r)
  FROM unnest(ARRAY['tierwise_owner', 'tierwise_app', 'tierwise_jobs']) AS r
 WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) \gexec
ALTER ROLE tierwise_app NOBYPASSRLS;
ALTER ROLE tierwise_jobs BYPASSRLS;
SELECT 'CREATE DATABASE tierwise OWNER tierwise_owner'
 WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = 'tierwise') \gexec
SQL
}

cmd_start() {
  ensure_binaries
  server_dirs
  if running; then
    echo "postgres: already running on 127.0.0.1:$TIERWISE_PG_PORT ($TIERWISE_PROFILE)"
    bootstrap_roles
    return 0
  fi
  if tw_port_open "$TIERWISE_PG_PORT"; then
    tw_die "port $TIERWISE_PG_PORT is in use by another process, not this profile's PostgreSQL ($PG_DATA)"
  fi
  prepare_dirs
  init_cluster
  write_config
  local t0
  t0=$(tw_now_ms)
  # 9>&-: the server must not inherit the start/stop lock (tw_lock).
  if ! as_server "$PG_BIN/pg_ctl" start -D "$PG_DATA" -l "$PG_LOG" -w -t 60 >/dev/null 9>&-; then
    tw_log_tail "$PG_LOG"
    tw_die "PostgreSQL did not start; see $PG_LOG"
  fi
  "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$TIERWISE_PG_PORT" -t 30 \
    || tw_die "PostgreSQL started but does not accept connections on 127.0.0.1:$TIERWISE_PG_PORT; see $PG_LOG"
  bootstrap_roles
  echo "postgres: ready on 127.0.0.1:$TIERWISE_PG_PORT ($TIERWISE_PROFILE) in $(( $(tw_now_ms) - t0 )) ms"
}

cmd_stop() {
  if [ ! -f "$PG_DATA/PG_VERSION" ] || ! running; then
    echo "postgres: not running ($TIERWISE_PROFILE)"
    return 0
  fi
  as_server "$PG_BIN/pg_ctl" stop -D "$PG_DATA" -m fast -w -t 60 >/dev/null \
    || tw_die "PostgreSQL did not stop within 60 s; see $PG_LOG"
  echo "postgres: stopped ($TIERWISE_PROFILE)"
}

cmd_status() {
  if [ -f "$PG_DATA/PG_VERSION" ] && running; then
    echo "postgres: running, pid $(head -n 1 "$PG_DATA/postmaster.pid"), 127.0.0.1:$TIERWISE_PG_PORT, data $PG_DATA"
  else
    echo "postgres: stopped ($TIERWISE_PROFILE)"
    return 3
  fi
}

cmd_psql() {
  running || tw_die "PostgreSQL ($TIERWISE_PROFILE) is not running; start it with $0 start"
  exec "$PG_BIN/psql" -h 127.0.0.1 -p "$TIERWISE_PG_PORT" -U tierwise_owner -d tierwise "$@"
}

case "${1:-}" in
  start) tw_lock postgres; cmd_start ;;
  stop) tw_lock postgres; server_dirs; cmd_stop ;;
  status) server_dirs; cmd_status ;;
  psql) shift; server_dirs; cmd_psql "$@" ;;
  *)
    echo "usage: $0 {start|stop|status|psql [psql args]}   (TIERWISE_PROFILE=demo|test)" >&2
    exit 2
    ;;
esac
