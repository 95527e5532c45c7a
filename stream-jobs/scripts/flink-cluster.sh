#!/usr/bin/env bash
# A standalone Flink 2.3 session cluster (one JobManager, two TaskManagers with one slot each, every
# one its own JVM) on 127.0.0.1, assembled from Maven Central jars: org.apache.flink:flink-dist (the
# binary distribution with bin/flink) is not published there, so this script runs the entry points
# that bin/start-cluster.sh and bin/flink run. It shows that the same jar runs on a cluster and
# rescales through a savepoint (docs/flink-cluster.md); with a downloaded Flink 2.3 use its bin/
# scripts instead.
#
#   stream-jobs/scripts/flink-cluster.sh start          # JobManager + 2 TaskManagers
#   stream-jobs/scripts/flink-cluster.sh run [args]     # = flink run [args] stream-jobs/target/tierwise-stream-jobs.jar
#   stream-jobs/scripts/flink-cluster.sh job            # prints the running job's id
#   stream-jobs/scripts/flink-cluster.sh stop-with-savepoint [job id]   # prints the savepoint's path
#   stream-jobs/scripts/flink-cluster.sh stop
#
# Ports: REST 28081 + TIERWISE_PORT_BASE, RPC 26123 + TIERWISE_PORT_BASE (below the ephemeral
# range, as infra/local/env.sh's). State (jars, config, logs, checkpoints, savepoints):
# $TIERWISE_STATE_DIR/flink-cluster, else .local/flink-cluster.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
base=${TIERWISE_PORT_BASE:-0}
rest_port=$((28081 + base))
dir=$(realpath -m "${TIERWISE_STATE_DIR:-.local}/flink-cluster")
jar=$PWD/stream-jobs/target/tierwise-stream-jobs.jar
flink_version=2.3.0
# The JVM options Flink's own config.yaml passes on Java 17 (env.java.opts.all).
java_opts=(--add-exports=java.base/sun.net.util=ALL-UNNAMED --add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED
  --add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.text=ALL-UNNAMED
  --add-opens=java.base/java.time=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent=ALL-UNNAMED --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED
  "-Dlog4j.configurationFile=$PWD/stream-jobs/src/main/resources/log4j2.properties")

libs() {
  [ -d "$dir/lib" ] && return
  mkdir -p "$dir"
  cat > "$dir/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
  <groupId>local</groupId><artifactId>flink-cluster-libs</artifactId><version>1</version><packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.flink</groupId><artifactId>flink-clients</artifactId><version>$flink_version</version></dependency>
    <dependency><groupId>org.apache.flink</groupId><artifactId>flink-streaming-java</artifactId><version>$flink_version</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j-impl</artifactId><version>2.25.2</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-core</artifactId><version>2.25.2</version></dependency>
  </dependencies>
</project>
POM
  mvn -q -B -f "$dir/pom.xml" org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies \
    -DoutputDirectory="$dir/lib"
}

config() {
  mkdir -p "$dir/conf" "$dir/log"
  cat > "$dir/conf/config.yaml" <<YAML
jobmanager: {rpc: {address: 127.0.0.1, port: $((26123 + base))}, bind-host: 127.0.0.1, memory: {process: {size: 1024m}}}
taskmanager: {host: 127.0.0.1, bind-host: 127.0.0.1, numberOfTaskSlots: 1, memory: {process: {size: 1536m}}}
parallelism: {default: 1}
rest: {address: 127.0.0.1, bind-address: 127.0.0.1, port: $rest_port}
execution: {checkpointing: {dir: "file://$dir/checkpoints", savepoint-dir: "file://$dir/savepoints",
  externalized-checkpoint-retention: RETAIN_ON_CANCELLATION}}
YAML
}

# shellcheck source=stream-jobs/scripts/flink-rest.sh
source "$(dirname "${BASH_SOURCE[0]}")/flink-rest.sh"

case "${1:-}" in
  start)
    libs
    config
    java -Xmx512m "${java_opts[@]}" -cp "$dir/lib/*" org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint \
      --configDir "$dir/conf" > "$dir/log/jobmanager.log" 2>&1 &
    echo $! > "$dir/jobmanager.pid"
    # The TaskManager's JVM and memory options, derived as bin/taskmanager.sh derives them.
    mapfile -t params < <(java -cp "$dir/lib/*" org.apache.flink.runtime.util.bash.BashJavaUtils GET_TM_RESOURCE_PARAMS \
      --configDir "$dir/conf" 2>/dev/null | sed -n 's/^BASH_JAVA_UTILS_EXEC_RESULT://p')
    for tm in 1 2; do
      # shellcheck disable=SC2086 # the two lines are space-separated option lists
      java ${params[0]} "${java_opts[@]}" -cp "$dir/lib/*" org.apache.flink.runtime.taskexecutor.TaskManagerRunner \
        --configDir "$dir/conf" ${params[1]} > "$dir/log/taskmanager-$tm.log" 2>&1 &
      echo $! > "$dir/taskmanager-$tm.pid"
    done
    for _ in $(seq 60); do
      if curl -sf "127.0.0.1:$rest_port/overview" | grep -q '"taskmanagers":2'; then
        echo "flink-cluster: ready, REST http://127.0.0.1:$rest_port (logs $dir/log)"
        exit 0
      fi
      sleep 1
    done
    echo "flink-cluster: the two TaskManagers did not register within 60 s (logs $dir/log)" >&2
    exit 1 ;;
  run)
    shift
    FLINK_CONF_DIR=$dir/conf exec java "${java_opts[@]}" -cp "$dir/lib/*" org.apache.flink.client.cli.CliFrontend \
      run "$@" "$jar" ;;
  job)
    running_job ;;
  stop-with-savepoint)
    stop_with_savepoint "${2:-$(running_job)}" ;;
  stop)
    for p in taskmanager-1 taskmanager-2 jobmanager; do
      if [ -f "$dir/$p.pid" ]; then
        pid=$(cat "$dir/$p.pid")
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
      fi
      rm -f "$dir/$p.pid"
    done ;;
  *) echo "usage: $0 start | run [flink run options] | job | stop-with-savepoint [job id] | stop" >&2; exit 2 ;;
esac
