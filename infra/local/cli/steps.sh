# Numbered, timed progress steps for ./tierwise (sourced, never run).
#
#   tw_steps_total N         announce how many steps the command has
#   tw_step "Doing X" CMD... print "[i/N] Doing X…", run CMD, print its time
#
# CMD runs directly (not inside `if`), so `set -e` stays in force inside it; a
# failing step ends the script and the EXIT trap names the step and its time.
# TW_ON_EXIT may name a function the EXIT trap calls first with the exit status
# (cleanup: stop what a command started).

TW_STEP=0
TW_STEPS=0
TW_STEP_NAME=""
TW_STEP_T0=0
TW_ON_EXIT=""

# tw_seconds MS: "12.3 s".
tw_seconds() {
  printf '%d.%d s' $(($1 / 1000)) $(($1 % 1000 / 100))
}

tw_steps_total() {
  TW_STEPS=$1
  TW_STEP=0
}

tw_step() {
  local desc=$1
  shift
  TW_STEP=$((TW_STEP + 1))
  TW_STEP_NAME="[$TW_STEP/$TW_STEPS] $desc"
  printf '%s…\n' "$TW_STEP_NAME"
  TW_STEP_T0=$(tw_now_ms)
  "$@"
  printf '      done in %s\n' "$(tw_seconds $(($(tw_now_ms) - TW_STEP_T0)))"
  TW_STEP_NAME=""
}

# tw_wait_for CMD...: run CMD as a child and wait for it, so that a signal
# to this script runs its trap at once (bash defers traps while a foreground
# child runs); the EXIT trap stops the child.
TW_CHILD=""
tw_wait_for() {
  local status=0
  "$@" &
  TW_CHILD=$!
  wait "$TW_CHILD" || status=$?
  TW_CHILD=""
  return "$status"
}

_tw_on_exit() {
  local status=$?
  trap - EXIT INT TERM
  [ -z "$TW_CHILD" ] || kill -TERM "$TW_CHILD" 2>/dev/null || true
  if [ -n "$TW_STEP_NAME" ] && [ "$status" -ne 0 ]; then
    local what="failed (exit $status)"
    [ "$status" -eq 130 ] && what="interrupted"
    printf 'tierwise: %s %s after %s\n' "$TW_STEP_NAME" "$what" \
      "$(tw_seconds $(($(tw_now_ms) - TW_STEP_T0)))" >&2
  fi
  if [ -n "$TW_ON_EXIT" ]; then
    "$TW_ON_EXIT" "$status" || true
  fi
  exit "$status"
}
trap _tw_on_exit EXIT
trap 'echo; echo "tierwise: interrupted" >&2; exit 130' INT
trap 'exit 143' TERM
