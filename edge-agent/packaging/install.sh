#!/bin/sh
# Tierwise agent installer (docs/install.md), served by the api at /install.sh:
#
#   curl -fsSL https://<api>/install.sh | sudo sh -s -- --token <enrollment token>
#
# Checks the OS and architecture, downloads the agent package from the api
# (a .deb where dpkg is the package manager, else the tarball) and checks it
# against SHA256SUMS, installs it, writes /etc/tierwise/agent.yaml, enrolls
# (the one-time token becomes this agent's credential, mode 0600; the tenant's
# anonymization key is generated at the first install unless given), and
# starts the agent (a systemd unit, or --no-systemd: in the background with a
# pid file). Running it again is harmless: the package is reinstalled and the
# agent restarted; configuration, credential and key are kept. --uninstall
# removes everything it added.
set -eu

# Filled in by the api that serves this script (empty when read from the repository).
DEFAULT_API_URL="@TIERWISE_API_URL@"
DEFAULT_GATEWAY_URL="@TIERWISE_GATEWAY_URL@"

PROG=tierwise-install

usage() {
  cat <<'EOF'
Usage: install.sh [options]
  --token TOKEN                  enrollment token (POST /v1/enrollment-tokens); needed at the first install
  --api-url URL                  the Tierwise api the packages come from (default: the api this script came from)
  --gateway-url URL              the agent gateway, every route the agent calls (default: the api's setting)
  --ingest-url URL               the same as --gateway-url (its former name)
  --anonymization-key HEX        the tenant's anonymization key (32 hex characters) from a first host
  --anonymization-key-file FILE  the same, read from a file
  --no-systemd                   start the agent in the background with a pid file, not as a systemd unit
  --package deb|tar              package to install (default: deb where dpkg exists and --root is not given)
  --root DIR                     install every file under DIR (tests, unprivileged use)
  --uninstall                    stop the agent and remove everything the installer added
  -h, --help                     this text
EOF
}

say() { printf '%s: %s\n' "$PROG" "$*" >&2; }
die() {
  say "error: $*"
  exit 1
}

API_URL=""
GATEWAY_URL=""
TOKEN="${TIERWISE_ENROLLMENT_TOKEN:-}"
KEY_HEX=""
KEY_FILE_IN=""
SYSTEMD=1
PACKAGE=""
ROOT=""
UNINSTALL=0

# value OPTION ARGC: fails unless OPTION has a value after it.
value() {
  [ "$2" -ge 2 ] || die "$1 needs a value (see --help)"
}

while [ $# -gt 0 ]; do
  case "$1" in
    --token) value "$1" $#; TOKEN=$2; shift 2 ;;
    --token=*) TOKEN=${1#*=}; shift ;;
    --api-url) value "$1" $#; API_URL=$2; shift 2 ;;
    --api-url=*) API_URL=${1#*=}; shift ;;
    --gateway-url | --ingest-url) value "$1" $#; GATEWAY_URL=$2; shift 2 ;;
    --gateway-url=* | --ingest-url=*) GATEWAY_URL=${1#*=}; shift ;;
    --anonymization-key) value "$1" $#; KEY_HEX=$2; shift 2 ;;
    --anonymization-key=*) KEY_HEX=${1#*=}; shift ;;
    --anonymization-key-file) value "$1" $#; KEY_FILE_IN=$2; shift 2 ;;
    --anonymization-key-file=*) KEY_FILE_IN=${1#*=}; shift ;;
    --no-systemd) SYSTEMD=0; shift ;;
    --package) value "$1" $#; PACKAGE=$2; shift 2 ;;
    --package=*) PACKAGE=${1#*=}; shift ;;
    --root) value "$1" $#; ROOT=$2; shift 2 ;;
    --root=*) ROOT=${1#*=}; shift ;;
    --uninstall) UNINSTALL=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
done

case "$DEFAULT_API_URL" in @*) DEFAULT_API_URL="" ;; esac
case "$DEFAULT_GATEWAY_URL" in @*) DEFAULT_GATEWAY_URL="" ;; esac
API_URL=${API_URL:-$DEFAULT_API_URL}
GATEWAY_URL=${GATEWAY_URL:-$DEFAULT_GATEWAY_URL}
API_URL=${API_URL%/}
GATEWAY_URL=${GATEWAY_URL%/}

if [ -n "$ROOT" ]; then
  mkdir -p "$ROOT" || die "cannot create --root $ROOT"
  ROOT=$(cd "$ROOT" && pwd)
fi

# Everything the installer may add (docs/install.md lists them).
ETC_DIR="$ROOT/etc/tierwise"
CONFIG="$ETC_DIR/agent.yaml"
CREDENTIAL="$ETC_DIR/agent.credential"
KEY_FILE="$ETC_DIR/anonymization.key"
STATE_DIR="$ROOT/var/lib/tierwise"
METHOD_FILE="$STATE_DIR/installed-package"
RUN_DIR="$ROOT/run/tierwise"
PID_FILE="$RUN_DIR/tierwise-agent.pid"
LOG_FILE="$ROOT/var/log/tierwise-agent.log"
OPT_DIR="$ROOT/opt/tierwise"
UNIT="$ROOT/etc/systemd/system/tierwise-agent.service"
DEB_BIN=/usr/bin/tierwise-agent

# systemctl acts on the running system only: not under --root.
has_systemctl() {
  [ -z "$ROOT" ] && command -v systemctl >/dev/null 2>&1
}

# running PID: the process exists and is not a zombie (an orphan whose parent
# has not reaped it yet has stopped all the same).
running() {
  kill -0 "$1" 2>/dev/null || return 1
  state=$(sed -n 's/^[0-9]* (.*) \(.\) .*/\1/p' "/proc/$1/stat" 2>/dev/null || true)
  [ "$state" != Z ]
}

# Stops an agent started with --no-systemd: SIGTERM (it finishes in-flight I/O
# and flushes), SIGKILL after 30 s.
stop_background_agent() {
  [ -f "$PID_FILE" ] || return 0
  pid=$(cat "$PID_FILE")
  case "$pid" in '' | *[!0-9]*) rm -f "$PID_FILE"; return 0 ;; esac
  if running "$pid"; then
    say "stopping the agent (pid $pid)"
    kill -TERM "$pid" 2>/dev/null || true
    i=0
    while running "$pid" && [ $i -lt 30 ]; do
      sleep 1
      i=$((i + 1))
    done
    if running "$pid"; then
      say "the agent did not stop in 30 s; killing it"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$PID_FILE"
}

uninstall() {
  stop_background_agent
  if [ -f "$UNIT" ]; then
    if has_systemctl; then
      systemctl disable --now tierwise-agent.service >/dev/null 2>&1 || true
    fi
    rm -f "$UNIT"
    if has_systemctl; then systemctl daemon-reload || true; fi
  fi
  if [ "$(cat "$METHOD_FILE" 2>/dev/null || true)" = deb ] && [ -z "$ROOT" ]; then
    dpkg --purge tierwise-agent >/dev/null || die "dpkg --purge tierwise-agent failed"
  fi
  rm -rf "$OPT_DIR" "$STATE_DIR" "$RUN_DIR"
  if [ -f "$KEY_FILE" ]; then
    say "removing the anonymization key $KEY_FILE (keep a copy if no other host of the tenant has it)"
  fi
  rm -f "$CONFIG" "$CREDENTIAL" "$KEY_FILE" "$CREDENTIAL.tmp" "$LOG_FILE"
  rmdir "$ETC_DIR" 2>/dev/null || true
  say "uninstalled (the agent stays listed in the api until an admin revokes it)"
}

if [ "$UNINSTALL" = 1 ]; then
  uninstall
  exit 0
fi

# --- checks -----------------------------------------------------------------
[ "$(uname -s)" = Linux ] || die "the agent runs on Linux only (this is $(uname -s))"
case "$(uname -m)" in
  x86_64 | amd64) ARCH=amd64 ;;
  aarch64 | arm64) ARCH=arm64 ;;
  *) die "no agent package for the $(uname -m) architecture (amd64 and arm64 only)" ;;
esac
if [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
  die "run as root (curl ... | sudo sh -s -- ...), or install under a directory with --root DIR"
fi
[ -n "$API_URL" ] || die "--api-url is required (this script was not served by an api)"
[ -n "$GATEWAY_URL" ] || die "--gateway-url is required (the api does not set TIERWISE_PUBLIC_INGEST_URL, the agent gateway's URL)"
for tool in curl sha256sum tar; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool is required"
done
if [ -z "$PACKAGE" ]; then
  if [ -z "$ROOT" ] && command -v dpkg >/dev/null 2>&1; then PACKAGE=deb; else PACKAGE=tar; fi
fi
case "$PACKAGE" in
  deb) [ -z "$ROOT" ] || die "--package deb installs into the system; use --package tar with --root" ;;
  tar) ;;
  *) die "--package must be deb or tar (got '$PACKAGE')" ;;
esac
if [ "$SYSTEMD" = 1 ] && [ -z "$ROOT" ] && ! command -v systemctl >/dev/null 2>&1; then
  die "systemd not found: give --no-systemd to run the agent with a pid file"
fi
if [ -r /etc/os-release ]; then
  # shellcheck disable=SC1091
  OS=$(. /etc/os-release && printf '%s' "${PRETTY_NAME:-$ID}")
else
  OS=Linux
fi
say "installing the Tierwise agent on $OS ($ARCH, $PACKAGE package${ROOT:+, under $ROOT})"

# The key to install, when given: 32 hex characters.
if [ -n "$KEY_FILE_IN" ]; then
  [ -r "$KEY_FILE_IN" ] || die "cannot read --anonymization-key-file $KEY_FILE_IN"
  KEY_HEX=$(tr -d ' \t\r\n' <"$KEY_FILE_IN")
fi
if [ -n "$KEY_HEX" ]; then
  case "$KEY_HEX" in
    *[!0-9a-fA-F]*) die "the anonymization key must be 32 hex characters" ;;
  esac
  [ ${#KEY_HEX} -eq 32 ] || die "the anonymization key must be 32 hex characters (got ${#KEY_HEX})"
  KEY_HEX=$(printf '%s' "$KEY_HEX" | tr 'A-F' 'a-f')
  if [ -f "$KEY_FILE" ] && [ "$(tr -d ' \t\r\n' <"$KEY_FILE")" != "$KEY_HEX" ]; then
    die "$KEY_FILE holds another key; uninstall first to change the tenant key of this host"
  fi
fi
if [ ! -s "$CREDENTIAL" ] && [ -z "$TOKEN" ]; then
  die "--token is required at the first install (create one: POST /v1/enrollment-tokens)"
fi

# --- download and verify ------------------------------------------------------
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM
fetch() {
  curl -fsSL --retry 3 -o "$WORK/$1" "$API_URL/downloads/agent/$1" || die "cannot download $API_URL/downloads/agent/$1"
}
fetch SHA256SUMS
if [ "$PACKAGE" = deb ]; then pattern="tierwise-agent_*_$ARCH.deb"; else pattern="tierwise-agent_*_linux-$ARCH.tar.gz"; fi
FILE=""
while read -r _sum name; do
  name=${name#\*}
  # shellcheck disable=SC2254
  case "$name" in $pattern) FILE=$name ;; esac
done <"$WORK/SHA256SUMS"
[ -n "$FILE" ] || die "the api offers no $PACKAGE package for $ARCH (see $API_URL/downloads/agent/SHA256SUMS)"
fetch "$FILE"
(cd "$WORK" && awk -v f="$FILE" '{ n = $2; sub(/^\*/, "", n) } n == f' SHA256SUMS | sha256sum -c --status -) ||
  die "checksum mismatch for $FILE: the download is damaged or not the one the api lists"
say "downloaded $FILE (SHA-256 verified)"

# --- install --------------------------------------------------------------------
mkdir -p "$ETC_DIR" "$STATE_DIR/spool" "$RUN_DIR" "$(dirname "$LOG_FILE")"
chmod 0755 "$ETC_DIR"
if [ "$PACKAGE" = deb ]; then
  if command -v apt-get >/dev/null 2>&1; then
    apt-get install -y -q "$WORK/$FILE" >/dev/null || die "apt-get install $FILE failed"
  else
    dpkg -i "$WORK/$FILE" >/dev/null || die "dpkg -i $FILE failed"
  fi
  AGENT_BIN=$DEB_BIN
else
  rm -rf "$OPT_DIR.new"
  mkdir -p "$OPT_DIR.new"
  tar -xzf "$WORK/$FILE" -C "$OPT_DIR.new" --strip-components=1 || die "cannot unpack $FILE"
  rm -rf "$OPT_DIR"
  mv "$OPT_DIR.new" "$OPT_DIR"
  AGENT_BIN=$OPT_DIR/bin/tierwise-agent
fi
printf '%s\n' "$PACKAGE" >"$METHOD_FILE"
say "installed $("$AGENT_BIN" --version) at $AGENT_BIN"

if [ -n "$KEY_HEX" ] && [ ! -f "$KEY_FILE" ]; then
  (umask 077 && printf '%s\n' "$KEY_HEX" >"$KEY_FILE")
  say "installed the tenant's anonymization key in $KEY_FILE"
fi

if [ -f "$CONFIG" ]; then
  say "kept the existing $CONFIG"
else
  cat >"$CONFIG" <<EOF
# Tierwise agent configuration, written by install.sh (docs/install.md).
# The agent gateway: telemetry, policies, enrollment and health (docs/agent-gateway.md).
gateway_url: $GATEWAY_URL
credential_file: $CREDENTIAL
anonymization_key_file: $KEY_FILE
spool_dir: $STATE_DIR/spool
health_interval_seconds: 60
telemetry_interval_seconds: 10
send_names: false
listen: unix:$RUN_DIR/nbd.sock
# Volumes to accelerate, as in serve's volumes file, e.g.
#   - {name: vm1, datastore: /var/lib/vm1.img, size: 10GiB, tier: {ram: 1GiB}}
volumes: []
EOF
  chmod 0644 "$CONFIG"
  say "wrote $CONFIG"
fi

# --- enroll -----------------------------------------------------------------------
had_key=0
[ -f "$KEY_FILE" ] && had_key=1
if [ -s "$CREDENTIAL" ]; then
  say "already enrolled (credential $CREDENTIAL kept)"
else
  TIERWISE_ENROLLMENT_TOKEN=$TOKEN "$AGENT_BIN" enroll --config "$CONFIG" ||
    die "enrollment failed (the message above says why)"
  if [ "$had_key" = 0 ]; then
    say "install further hosts of this tenant with --anonymization-key-file (a copy of $KEY_FILE, over a safe channel)"
  fi
fi
chmod 0600 "$CREDENTIAL" "$KEY_FILE"

# --- start ----------------------------------------------------------------------------
if [ "$SYSTEMD" = 1 ]; then
  mkdir -p "$(dirname "$UNIT")"
  cat >"$UNIT" <<EOF
[Unit]
Description=Tierwise edge agent
Documentation=https://github.com/tierwise/tierwise/blob/main/docs/install.md
Wants=network-online.target
After=network-online.target

[Service]
ExecStart=$AGENT_BIN run --config $CONFIG
Restart=on-failure
RestartSec=5
KillSignal=SIGTERM
TimeoutStopSec=90

[Install]
WantedBy=multi-user.target
EOF
  if has_systemctl; then
    systemctl daemon-reload
    systemctl enable tierwise-agent.service >/dev/null 2>&1
    systemctl restart tierwise-agent.service || die "systemctl restart tierwise-agent failed (journalctl -u tierwise-agent)"
    say "started tierwise-agent.service (journalctl -u tierwise-agent)"
  else
    say "wrote $UNIT (not started: systemctl acts on the running system, not under --root)"
  fi
else
  stop_background_agent
  nohup "$AGENT_BIN" run --config "$CONFIG" >>"$LOG_FILE" 2>&1 </dev/null &
  pid=$!
  printf '%s\n' "$pid" >"$PID_FILE"
  sleep 1
  if ! running "$pid"; then
    rm -f "$PID_FILE"
    tail -n 20 "$LOG_FILE" >&2 || true
    die "the agent stopped right after starting (log: $LOG_FILE)"
  fi
  say "started the agent in the background (pid $pid, pid file $PID_FILE, log $LOG_FILE)"
fi
say "done"
