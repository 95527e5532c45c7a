package io.tierwise.jobs;

import io.tierwise.jobs.ingest.KafkaSources;
import io.tierwise.jobs.metrics.IntervalMetrics;
import io.tierwise.jobs.metrics.MetricsRollupJob;
import io.tierwise.jobs.metrics.OtlpMetricsParser;
import io.tierwise.jobs.sink.PostgresSinks;
import io.tierwise.jobs.sink.RollupRetention;
import io.tierwise.jobs.workingset.pipeline.ReferenceBatchEvent;
import io.tierwise.jobs.workingset.pipeline.ReferenceBatchParser;
import io.tierwise.jobs.workingset.pipeline.SharedTier;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.LocalStreamEnvironment;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the Tierwise stream jobs, the metrics rollup and the working-set / MRC / recommendation
 * pipelines, as one Flink job: in an embedded MiniCluster with {@code java -jar}, or on a Flink
 * cluster with {@code flink run}. Reads its settings with {@link JobSettings#load}. Logs
 * {@value #RUNNING_LINE} once the job is RUNNING; exits 1 with the reason when it cannot start or
 * fails. Embedded, it also enforces the rollup retention every hour ({@link RollupRetention}) and
 * runs until the job ends; on a cluster, main returns once the job runs.
 */
public final class TierwiseJobs {
  /** The line start-up scripts wait for. */
  public static final String RUNNING_LINE = "tierwise-stream-jobs: running";
  private static final String JOB_NAME = "tierwise-stream-jobs";
  private static final Duration START_TIMEOUT = Duration.ofMinutes(2);
  private static final String LOOPBACK = "127.0.0.1";
  private static final Logger LOG = LoggerFactory.getLogger(TierwiseJobs.class);

  private TierwiseJobs() {}

  /** Entry point; see the class comment. */
  public static void main(String[] args) {
    try {
      JobSettings settings = JobSettings.load(System.getenv());
      KafkaSources.requireTopics(settings.kafkaBrokers(), settings.kafkaSecurity(),
          List.of(settings.metricsTopic(), settings.refsTopic()));
      new PostgresSinks(settings.jdbcUrl()).requireWritableTables();
      boolean embedded = StreamExecutionEnvironment.getExecutionEnvironment() instanceof LocalStreamEnvironment;
      if (embedded) {
        RollupRetention.schedule(settings.jdbcUrl());
      }
      JobClient client = start(settings);
      LOG.info("{} (job {}, Kafka {}, PostgreSQL {})", RUNNING_LINE, client.getJobID(), settings.kafkaBrokers(),
          settings.jdbcUrl().replaceFirst("\\?.*", ""));
      if (!embedded) {
        LOG.info("tierwise-stream-jobs: submitted to the Flink cluster; run io.tierwise.jobs.sink.RollupRetention"
            + " hourly (docs/flink-cluster.md)");
        return;
      }
      client.getJobExecutionResult().get();
      LOG.error("tierwise-stream-jobs: the job ended");
    } catch (IllegalArgumentException | IllegalStateException e) {
      LOG.error("tierwise-stream-jobs: {}", e.getMessage());
    } catch (Exception e) {
      LOG.error("tierwise-stream-jobs: {}", rootMessage(e), e);
    }
    System.exit(1);
  }

  /**
   * Builds both pipelines, submits them, and waits until the job is RUNNING.
   *
   * @return the running job
   * @throws Exception when the job fails or does not reach RUNNING within 2 minutes
   */
  public static JobClient start(JobSettings settings) throws Exception {
    StreamExecutionEnvironment env = environment(settings);
    PostgresSinks pg = new PostgresSinks(settings.jdbcUrl());
    DataStream<IntervalMetrics> metrics = new MetricsRollupJob(
        KafkaSources.telemetry(settings.kafkaBrokers(), settings.metricsTopic(),
            settings.consumerGroupPrefix() + ".metrics", new OtlpMetricsParser(), Types.POJO(IntervalMetrics.class),
            settings.kafkaSecurity(), settings.telemetry()),
        pg.volumeMetrics(settings.telemetry()), pg.volumeIoStats(), pg.blockSizes(), pg.metricRollups(),
        settings.flushDelay(), settings.coarseWritePeriod(),
        JobSettings.ROLLUP_LATENESS)
        .addTo(env);
    new WorkingSetJob(
        KafkaSources.telemetry(settings.kafkaBrokers(), settings.refsTopic(),
            settings.consumerGroupPrefix() + ".refs", new ReferenceBatchParser(),
            Types.POJO(ReferenceBatchEvent.class), settings.kafkaSecurity(), settings.telemetry()),
        new WorkingSetJob.Sinks(pg.workingSets(), pg.missRatioCurves(), pg.recommendations()),
        Map.of(SharedTier.CLUSTER, sharedTier(pg, SharedTier.CLUSTER), SharedTier.HOST, sharedTier(pg, SharedTier.HOST)),
        settings.flushDelay(), settings.coarseWritePeriod(),
        JobSettings.SEQUENCE_GAP_TIMEOUT, JobSettings.SHARED_TIER_IDLE_TIMEOUT, JobSettings.MAX_PENDING_BATCHES)
        .addTo(env, metrics);
    JobClient client = env.executeAsync(JOB_NAME);
    awaitRunning(client);
    return client;
  }

  /** A shared tier's sinks: its working sets, MRCs and recommendations (cluster_* or host_*). */
  private static WorkingSetJob.Sinks sharedTier(PostgresSinks pg, SharedTier tier) {
    return new WorkingSetJob.Sinks(pg.sharedTierWorkingSets(tier), pg.sharedTierMissRatioCurves(tier),
        pg.sharedTierRecommendations(tier));
  }

  /**
   * The execution environment: checkpoints every {@code checkpointInterval} (Kafka offsets are
   * committed on each), no Kryo fallback, max parallelism {@link JobSettings#MAX_PARALLELISM},
   * object reuse on: a record goes to the operators chained after its producer as it is, not as
   * a copy each (docs/fleet-scale.md, lever "object reuse between chained operators"). The
   * contract this needs of every operator: it never changes a record it was given, nor one it
   * emitted (a row's values are copied out of the state, which changes later; a sink may hold
   * the row until its batch is written).
   * Embedded: checkpoints retained in {@code checkpointDir}, the newest restored on start, every
   * endpoint bound to 127.0.0.1.
   */
  static StreamExecutionEnvironment environment(JobSettings settings) throws Exception {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, settings.checkpointInterval());
    conf.set(PipelineOptions.GENERIC_TYPES, false);
    conf.set(PipelineOptions.MAX_PARALLELISM, JobSettings.MAX_PARALLELISM);
    conf.set(PipelineOptions.OBJECT_REUSE, true);
    settings.telemetry().addMetricReporter(conf);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    if (!(env instanceof LocalStreamEnvironment)) {
      return env;
    }
    Path dir = settings.checkpointDir();
    conf.set(RestOptions.BIND_ADDRESS, LOOPBACK);
    conf.set(RestOptions.ADDRESS, LOOPBACK);
    conf.set(JobManagerOptions.BIND_HOST, LOOPBACK);
    conf.set(TaskManagerOptions.BIND_HOST, LOOPBACK);
    conf.set(TaskManagerOptions.HOST, LOOPBACK);
    conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, dir.toUri().toString());
    conf.set(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
        ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
    Optional<Path> newest = LocalCheckpoints.newest(dir);
    if (newest.isPresent()) {
      LOG.info("restoring state from checkpoint {} (delete {} to start from the committed Kafka offsets)",
          newest.get(), dir);
      conf.set(StateRecoveryOptions.SAVEPOINT_PATH, newest.get().toUri().toString());
      conf.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, true);
      LocalCheckpoints.deleteOthers(dir, newest.get());
    }
    return StreamExecutionEnvironment.getExecutionEnvironment(conf);
  }

  private static void awaitRunning(JobClient client) throws Exception {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      JobStatus status = client.getJobStatus().get(10, TimeUnit.SECONDS);
      if (status == JobStatus.RUNNING) {
        return;
      }
      if (status.isGloballyTerminalState()) {
        client.getJobExecutionResult().get();
        throw new IllegalStateException("the job ended while starting: " + status);
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("the job did not reach RUNNING within " + START_TIMEOUT.toSeconds() + " s");
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t == e ? String.valueOf(e) : e + " (cause: " + t + ")";
  }
}
