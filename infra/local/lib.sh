# Shared helpers for infra/local/*.sh and ./tierwise (sourced, never run).
# Expects infra/local/env.sh to be sourced first.
#
# Background processes ("services") are started in their own session, so that
# the whole tree (npm -> sh -> node) can be stopped through its process group
# and a Ctrl-C in the terminal does not reach them. Bookkeeping:
#   $TIERWISE_STATE_DIR/run/<name>.pid   "<pid> <start time in clock ticks>"
#   $TIERWISE_STATE_DIR/logs/<name>.log  stdout+stderr (previous run: .log.1)

TW_RUN_DIR="$TIERWISE_STATE_DIR/run"
TW_LOG_DIR="$TIERWISE_STATE_DIR/logs"

# tw_die MESSAGE...: print "<script>: error: MESSAGE" on stderr and exit 1.
tw_die() {
  printf '%s: error: %s\n' "${TW_NAME:-tierwise}" "$*" >&2
  exit 1
}

# tw_lock NAME: hold an exclusive lock (run/NAME.lock) until the script
# exits, so that two concurrent `start`s or `stop`s of NAME take turns.
tw_lock() {
  mkdir -p "$TW_RUN_DIR"
  exec 9>"$TW_RUN_DIR/$1.lock"
  flock 9
}

# tw_port_open PORT: true when something accepts TCP connections on 127.0.0.1:PORT.
tw_port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# tw_http_ok URL: true when URL answers with a 2xx status within 2 seconds.
tw_http_ok() {
  curl -fsS -o /dev/null --max-time 2 "$1" 2>/dev/null
}

# tw_now_ms: wall clock in milliseconds (for step timings).
tw_now_ms() {
  date +%s%3N
}

# tw_log_tail FILE: the last 15 lines of FILE, indented, on stderr.
tw_log_tail() {
  [ -s "$1" ] || return 0
  printf '  --- last lines of %s ---\n' "$1" >&2
  tail -n 15 "$1" | sed 's/^/  | /' >&2
}

# _tw_starttime PID: the start time of a live (not zombie) process, field 22
# of /proc/PID/stat in clock ticks since boot; it tells a process from a
# later one that reuses its pid.
_tw_starttime() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  # Field 2 (comm) may hold spaces; everything after the last ')' starts at field 3.
  stat=${stat##*) }
  set -- $stat
  [ "$1" != Z ] || return 1
  printf '%s' "${20}"
}

# _tw_group_alive PGID: true while a process of group PGID lives. Zombies do
# not count: an init that reaps slowly would keep them around.
_tw_group_alive() {
  ps -e -o pgid=,stat= | awk -v g="$1" '$1 == g && $2 !~ /^Z/ { found = 1 } END { exit !found }'
}

# tw_pid NAME: print the pid of service NAME and return 0 when it runs;
# return 1 (and remove a stale pid file) when it does not.
tw_pid() {
  local file="$TW_RUN_DIR/$1.pid" pid start now
  [ -f "$file" ] || return 1
  read -r pid start <"$file" || true
  [ -n "${pid:-}" ] || { rm -f "$file"; return 1; }
  if now=$(_tw_starttime "$pid"); then
    # The leader lives: it is ours only if it started when we recorded.
    [ "$now" = "${start:-}" ] && { printf '%s' "$pid"; return 0; }
  elif _tw_group_alive "$pid"; then
    # The leader exited but members of its process group (children) live on;
    # Linux does not reuse a pid while it still names a process group.
    printf '%s' "$pid"
    return 0
  fi
  rm -f "$file"
  return 1
}

# tw_start NAME CMD...: run CMD in the background (new session, cwd
# $TIERWISE_ROOT, stdin /dev/null) with its output in logs/NAME.log.
# Does nothing when NAME already runs.
tw_start() {
  local name=$1 pid log
  shift
  if pid=$(tw_pid "$name"); then
    echo "$name: already running (pid $pid)"
    return 0
  fi
  mkdir -p "$TW_RUN_DIR" "$TW_LOG_DIR"
  log="$TW_LOG_DIR/$name.log"
  [ -f "$log" ] && mv -f "$log" "$log.1"
  # A background job of a non-interactive shell is not a group leader, so
  # setsid execs in place and $! is the new session's leader.
  # 9>&-: the service must not inherit a lock held by the caller (tw_lock).
  (cd "$TIERWISE_ROOT" && exec setsid "$@" </dev/null >"$log" 2>&1 9>&-) &
  pid=$!
  printf '%s %s\n' "$pid" "$(_tw_starttime "$pid" || echo 0)" >"$TW_RUN_DIR/$name.pid"
}

# tw_wait_ready NAME TIMEOUT_S CHECK...: poll CHECK (a command) every 0.25 s
# until it succeeds. Fails with a pointer to NAME's log when NAME exits or
# TIMEOUT_S passes.
tw_wait_ready() {
  local name=$1 timeout=$2 log deadline
  shift 2
  log="$TW_LOG_DIR/$name.log"
  deadline=$(( $(tw_now_ms) + timeout * 1000 ))
  until "$@"; do
    if ! tw_pid "$name" >/dev/null; then
      echo "$name: exited before it was ready; see $log" >&2
      tw_log_tail "$log"
      return 1
    fi
    if [ "$(tw_now_ms)" -ge "$deadline" ]; then
      echo "$name: not ready after ${timeout}s; see $log" >&2
      tw_log_tail "$log"
      return 1
    fi
    sleep 0.25
  done
}

# tw_stop NAME [TIMEOUT_S]: SIGTERM the process group of NAME, SIGKILL it
# after TIMEOUT_S (default 20), remove the pid file. No-op when not running.
tw_stop() {
  local name=$1 timeout=${2:-20} pid i
  pid=$(tw_pid "$name") || return 0
  kill -TERM -- "-$pid" 2>/dev/null || true
  for ((i = 0; i < timeout * 10; i++)); do
    _tw_group_alive "$pid" || break
    sleep 0.1
  done
  if _tw_group_alive "$pid"; then
    echo "$name: still running after ${timeout}s, sending SIGKILL" >&2
    kill -KILL -- "-$pid" 2>/dev/null || true
  fi
  rm -f "$TW_RUN_DIR/$name.pid"
  echo "$name: stopped (pid $pid)"
}
