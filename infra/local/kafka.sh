#!/usr/bin/env bash
# Local single-node Kafka (KRaft: broker + controller in one JVM) for the
# Tierwise stack (profile from TIERWISE_PROFILE).
#
#   infra/local/kafka.sh start    gather jars on first use, format storage once,
#                                 start, wait for the port, create the topics
#   infra/local/kafka.sh stop     controlled shutdown (SIGKILL after 60 s)
#   infra/local/kafka.sh status   exit 0 running, 3 stopped
#   infra/local/kafka.sh add-scram-user NAME PASSWORD
#                                 a SCRAM-SHA-512 credential for the SASL listener
#
# Besides PLAINTEXT on TIERWISE_KAFKA_PORT the broker has a SASL_PLAINTEXT listener with
# SCRAM-SHA-512 (the mechanism Amazon MSK's SASL/SCRAM uses, here without TLS) on
# TIERWISE_KAFKA_SCRAM_PORT, so tests can run the services and jobs with Kafka credentials.
#
# Jars: $TIERWISE_TOOLS_DIR/kafka-4.3.1/libs (from infra/local/kafka/pom.xml,
# shared by the profiles). State: $TIERWISE_STATE_DIR/kafka (server.properties,
# data/), log: $TIERWISE_STATE_DIR/logs/kafka.log, pid: run/kafka.pid.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/env.sh"
source "$here/lib.sh"
TW_NAME=kafka.sh

KAFKA_VERSION=4.3.1
KAFKA_POM="$here/kafka/pom.xml"
KAFKA_LOG4J="$here/kafka/log4j2.xml"
KAFKA_LIBS="$TIERWISE_TOOLS_DIR/kafka-$KAFKA_VERSION/libs"
KAFKA_DIR="$TIERWISE_STATE_DIR/kafka"
KAFKA_PROPS="$KAFKA_DIR/server.properties"
KAFKA_DATA="$KAFKA_DIR/data"
ADMIN_LOG="$TW_LOG_DIR/kafka-admin.log"
# The ingest -> Flink topics (contract: DESIGN.md section 2, ingest_record.proto).
TOPICS=(telemetry.metrics.v1 telemetry.refs.v1)
TOPIC_PARTITIONS=4

# kafka_tool CLASS ARGS...: run a Kafka command-line class in a small, quick JVM,
# with its output appended to kafka-admin.log.
kafka_tool() {
  java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
    -Dlog4j2.configurationFile="$KAFKA_LOG4J" -Dtierwise.kafka.log.level=WARN \
    -cp "$KAFKA_LIBS/*" "$@"
}

# The jars are gathered once per pom.xml content; the pom's digest marks a
# complete copy, so an interrupted download is redone.
ensure_libs() {
  local digest
  command -v java >/dev/null || tw_die "java not found; install openjdk-17-jre-headless"
  digest=$(sha256sum "$KAFKA_POM" | cut -d' ' -f1)
  [ "$(cat "$KAFKA_LIBS/.pom-sha256" 2>/dev/null)" = "$digest" ] && return 0
  command -v mvn >/dev/null || tw_die "mvn not found; install maven (needed once to fetch the Kafka jars)"
  mkdir -p "$TIERWISE_TOOLS_DIR"
  (
    flock 9
    [ "$(cat "$KAFKA_LIBS/.pom-sha256" 2>/dev/null)" = "$digest" ] && exit 0
    echo "kafka: gathering Kafka $KAFKA_VERSION jars from Maven Central into $KAFKA_LIBS"
    rm -rf "$KAFKA_LIBS.tmp"
    mvn -q -B -f "$KAFKA_POM" \
      org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies \
      -DoutputDirectory="$KAFKA_LIBS.tmp" >"$TIERWISE_TOOLS_DIR/kafka-mvn.log" 2>&1 \
      || { tw_log_tail "$TIERWISE_TOOLS_DIR/kafka-mvn.log"; tw_die "mvn could not gather the Kafka jars (Maven Central reachable?); see $TIERWISE_TOOLS_DIR/kafka-mvn.log"; }
    echo "$digest" >"$KAFKA_LIBS.tmp/.pom-sha256"
    rm -rf "$KAFKA_LIBS"
    mv "$KAFKA_LIBS.tmp" "$KAFKA_LIBS"
  ) 9>"$TIERWISE_TOOLS_DIR/kafka.lock"
}

# Rewritten on every start, so it follows env.sh.
write_props() {
  mkdir -p "$KAFKA_DATA"
  cat >"$KAFKA_PROPS" <<EOF
# Written by infra/local/kafka.sh on every start; edits are lost.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$TIERWISE_KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$TIERWISE_KAFKA_PORT,CONTROLLER://127.0.0.1:$TIERWISE_KAFKA_CONTROLLER_PORT,SCRAM://127.0.0.1:$TIERWISE_KAFKA_SCRAM_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$TIERWISE_KAFKA_PORT,SCRAM://127.0.0.1:$TIERWISE_KAFKA_SCRAM_PORT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SCRAM:SASL_PLAINTEXT
# SASL/SCRAM on the SCRAM listener (credentials: kafka.sh add-scram-user).
listener.name.scram.sasl.enabled.mechanisms=SCRAM-SHA-512
listener.name.scram.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
log.dirs=$KAFKA_DATA
# One node: every internal topic has a single replica.
offsets.topic.replication.factor=1
offsets.topic.num.partitions=4
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
# Topics are created explicitly by kafka.sh with $TOPIC_PARTITIONS partitions.
auto.create.topics.enable=false
num.partitions=$TOPIC_PARTITIONS
# Ingest publishes one request's records (a body of up to 8 MiB) in one produce call; they may
# all land in one partition, whose record batch must fit (services/ingest/src/ingest.constants.ts).
message.max.bytes=10485760
log.retention.hours=168
EOF
}

format_storage() {
  [ -f "$KAFKA_DATA/meta.properties" ] && return 0
  local cluster_id
  cluster_id=$(kafka_tool kafka.tools.StorageTool random-uuid 2>>"$ADMIN_LOG") \
    || tw_die "kafka.tools.StorageTool random-uuid failed; see $ADMIN_LOG"
  echo "kafka: formatting $KAFKA_DATA (cluster id $cluster_id)"
  kafka_tool kafka.tools.StorageTool format -t "$cluster_id" -c "$KAFKA_PROPS" >>"$ADMIN_LOG" 2>&1 \
    || { tw_log_tail "$ADMIN_LOG"; tw_die "formatting Kafka storage failed; see $ADMIN_LOG"; }
}

ensure_topics() {
  local bootstrap="127.0.0.1:$TIERWISE_KAFKA_PORT" existing topic pids=() status=0
  existing=$(kafka_tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$bootstrap" --list 2>>"$ADMIN_LOG") \
    || { tw_log_tail "$ADMIN_LOG"; tw_die "listing Kafka topics failed; see $ADMIN_LOG"; }
  for topic in "${TOPICS[@]}"; do
    grep -qxF "$topic" <<<"$existing" && continue
    kafka_tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$bootstrap" --create --if-not-exists \
      --topic "$topic" --partitions "$TOPIC_PARTITIONS" --replication-factor 1 >>"$ADMIN_LOG" 2>&1 &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do
    wait "$pid" || status=1
  done
  [ "$status" -eq 0 ] || { tw_log_tail "$ADMIN_LOG"; tw_die "creating Kafka topics failed; see $ADMIN_LOG"; }
}

cmd_start() {
  local pid t0
  if pid=$(tw_pid kafka); then
    echo "kafka: already running (pid $pid) on 127.0.0.1:$TIERWISE_KAFKA_PORT ($TIERWISE_PROFILE)"
    return 0
  fi
  for port in "$TIERWISE_KAFKA_PORT" "$TIERWISE_KAFKA_CONTROLLER_PORT" "$TIERWISE_KAFKA_SCRAM_PORT"; do
    tw_port_open "$port" && tw_die "port $port is in use by another process, not this profile's Kafka"
  done
  ensure_libs
  mkdir -p "$TW_LOG_DIR"
  write_props
  format_storage
  t0=$(tw_now_ms)
  tw_start kafka java -Xms256m -Xmx512m -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true \
    -Dlog4j2.configurationFile="$KAFKA_LOG4J" -cp "$KAFKA_LIBS/*" kafka.Kafka "$KAFKA_PROPS"
  tw_wait_ready kafka 90 tw_port_open "$TIERWISE_KAFKA_PORT" || tw_die "Kafka did not start"
  ensure_topics
  echo "kafka: ready on 127.0.0.1:$TIERWISE_KAFKA_PORT ($TIERWISE_PROFILE), topics ${TOPICS[*]}, in $(( $(tw_now_ms) - t0 )) ms"
}

cmd_stop() {
  if ! tw_pid kafka >/dev/null; then
    echo "kafka: not running ($TIERWISE_PROFILE)"
    return 0
  fi
  tw_stop kafka 60
}

cmd_status() {
  local pid
  if pid=$(tw_pid kafka); then
    echo "kafka: running, pid $pid, 127.0.0.1:$TIERWISE_KAFKA_PORT, data $KAFKA_DATA"
  else
    echo "kafka: stopped ($TIERWISE_PROFILE)"
    return 3
  fi
}

# add-scram-user NAME PASSWORD: stores a SCRAM-SHA-512 credential (KRaft keeps it in the
# metadata log), through the PLAINTEXT listener.
cmd_add_scram_user() {
  [ $# -eq 2 ] || tw_die "usage: kafka.sh add-scram-user NAME PASSWORD"
  tw_pid kafka >/dev/null || tw_die "kafka is not running ($TIERWISE_PROFILE)"
  kafka_tool kafka.admin.ConfigCommand --bootstrap-server "127.0.0.1:$TIERWISE_KAFKA_PORT" --alter \
    --add-config "SCRAM-SHA-512=[iterations=4096,password=$2]" --entity-type users --entity-name "$1" \
    >>"$ADMIN_LOG" 2>&1 || { tw_log_tail "$ADMIN_LOG"; tw_die "adding SCRAM user $1 failed; see $ADMIN_LOG"; }
  echo "kafka: SCRAM-SHA-512 user $1 on 127.0.0.1:$TIERWISE_KAFKA_SCRAM_PORT"
}

case "${1:-}" in
  start) tw_lock kafka; cmd_start ;;
  stop) tw_lock kafka; cmd_stop ;;
  status) cmd_status ;;
  add-scram-user) shift; cmd_add_scram_user "$@" ;;
  *)
    echo "usage: $0 {start|stop|status|add-scram-user NAME PASSWORD}   (TIERWISE_PROFILE=demo|test)" >&2
    exit 2
    ;;
esac
