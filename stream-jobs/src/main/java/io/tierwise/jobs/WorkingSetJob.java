package io.tierwise.jobs;

import io.tierwise.jobs.metrics.IntervalMetrics;
import io.tierwise.jobs.recommend.RecommendFunction;
import io.tierwise.jobs.recommend.Recommendation;
import io.tierwise.jobs.workingset.estimate.MrcEstimators;
import io.tierwise.jobs.workingset.estimate.WindowEstimate;
import io.tierwise.jobs.workingset.pipeline.ReferenceBatchEvent;
import io.tierwise.jobs.workingset.pipeline.SharedTier;
import io.tierwise.jobs.workingset.pipeline.SharedTierWorkingSetFunction;
import io.tierwise.jobs.workingset.pipeline.VolumeAnalysis;
import io.tierwise.jobs.workingset.pipeline.VolumeLatency;
import io.tierwise.jobs.workingset.pipeline.WorkingSetFunction;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.KeyedStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.Collector;

/**
 * The working-set job's graph, the estimators' operators of {@code workingset.pipeline} and the
 * recommender's of {@code recommend}: sampled reference batches (and the metrics intervals'
 * measured latency) -> {@link WorkingSetFunction} keyed by tenant/volume -> volume_working_sets and
 * volume_mrcs; the processed batches of volumes that share a tier -> one {@link
 * SharedTierWorkingSetFunction} per {@link SharedTier} (keyed by tenant/cluster and tenant/host) ->
 * its working sets and MRCs. Each of them also emits the recommendation window's {@link
 * WindowEstimate} -> {@link RecommendFunction} (keyed as its source; material changes only, a
 * volume's with the recommendation in force) -> its recommendations table.
 * Source and sinks are given, so tests can run it on their own inputs.
 */
public final class WorkingSetJob {
  /** Where one kind of result goes: working-set rows, MRC rows, recommendations. */
  public record Sinks(Sink<VolumeAnalysis> workingSets, Sink<VolumeAnalysis> missRatioCurves,
      Sink<Recommendation> recommendations) {}

  private final Source<ReferenceBatchEvent, ?, ?> source;
  private final Sinks volumes;
  private final Map<SharedTier, Sinks> sharedTiers;
  private final Duration flushDelay;
  private final Duration coarseWritePeriod;
  private final Duration gapTimeout;
  private final Duration sharedTierIdleTimeout;
  private final int maxPendingBatches;

  /**
   * @param source parsed telemetry.refs.v1 records
   * @param volumes sinks of volume_working_sets, volume_mrcs and recommendations rows
   * @param sharedTiers sinks of each shared tier's rows (cluster_*, host_*); a kind left out is not
   *     computed
   * @param flushDelay results are due this long after new references
   * @param coarseWritePeriod the least time between two writes of a steadily reporting volume's or
   *     shared tier's results ({@link io.tierwise.jobs.pacing.CoarseWrites}); its first at once
   * @param gapTimeout how long batches wait for a missing sequence number; also how far (in
   *     reference time) a shared tier's references wait for its other volumes, and how long a
   *     shared tier waits with no batch before it releases what they all sent past
   * @param sharedTierIdleTimeout how long a shared tier's references wait for a volume that sends
   *     no batch ({@link JobSettings#SHARED_TIER_IDLE_TIMEOUT})
   * @param maxPendingBatches how many batches may wait for one
   */
  public WorkingSetJob(Source<ReferenceBatchEvent, ?, ?> source, Sinks volumes, Map<SharedTier, Sinks> sharedTiers,
      Duration flushDelay, Duration coarseWritePeriod, Duration gapTimeout, Duration sharedTierIdleTimeout,
      int maxPendingBatches) {
    this.source = source;
    this.volumes = volumes;
    this.sharedTiers = new EnumMap<>(SharedTier.class);
    this.sharedTiers.putAll(sharedTiers);
    this.flushDelay = flushDelay;
    this.coarseWritePeriod = coarseWritePeriod;
    this.gapTimeout = gapTimeout;
    this.sharedTierIdleTimeout = sharedTierIdleTimeout;
    this.maxPendingBatches = maxPendingBatches;
  }

  /**
   * Adds the pipeline to {@code env} (operator uids are stable for checkpoint restore).
   *
   * @param metrics the agents' parsed metrics intervals: their measured latency goes to the
   *     recommendations ({@link WorkingSetFunction}'s second input)
   */
  public void addTo(StreamExecutionEnvironment env, DataStream<IntervalMetrics> metrics) {
    KeyedStream<VolumeLatency, String> latencies = metrics
        .flatMap((IntervalMetrics m, Collector<VolumeLatency> out) -> {
          VolumeLatency v = VolumeLatency.of(m);
          if (v != null) {
            out.collect(v);
          }
        }, Types.POJO(VolumeLatency.class))
        .uid("measured-latency").name("measured latency")
        .keyBy(VolumeLatency::volumeKey, Types.STRING);
    SingleOutputStreamOperator<VolumeAnalysis> analyses = env
        .fromSource(source, WatermarkStrategy.noWatermarks(), "telemetry.refs.v1")
        .uid("refs-source")
        .keyBy(ReferenceBatchEvent::volumeKey, Types.STRING)
        .connect(latencies)
        .process(new WorkingSetFunction(flushDelay.toMillis(), coarseWritePeriod.toMillis(), gapTimeout.toMillis(), maxPendingBatches,
            MrcEstimators.DEFAULT), Types.POJO(VolumeAnalysis.class))
        .uid("working-set")
        .name("working set / MRC");
    analyses.sinkTo(volumes.workingSets()).uid("sink-volume-working-sets").name("volume_working_sets");
    analyses.sinkTo(volumes.missRatioCurves()).uid("sink-volume-mrcs").name("volume_mrcs");
    recommendations(analyses, true, "", volumes.recommendations());
    DataStream<ReferenceBatchEvent> shared = analyses.getSideOutput(WorkingSetFunction.SHARED_TIER_BATCHES);
    sharedTiers.forEach((tier, sinks) -> {
      // The cluster's operators keep the uids they had before hosts were added (checkpoint restore).
      String name = tier.name().toLowerCase(Locale.ROOT);
      SingleOutputStreamOperator<VolumeAnalysis> tiers = shared
          .filter(b -> tier.key(b) != null).uid(name + "-batches").name(name + " batches")
          .keyBy(tier::key, Types.STRING)
          .process(new SharedTierWorkingSetFunction(flushDelay.toMillis(), coarseWritePeriod.toMillis(),
              gapTimeout.toMillis(), sharedTierIdleTimeout.toMillis(), gapTimeout.toMillis(), MrcEstimators.DEFAULT, tier),
              Types.POJO(VolumeAnalysis.class))
          .uid(name + "-working-set")
          .name(name + " working set / MRC");
      tiers.sinkTo(sinks.workingSets()).uid("sink-" + name + "-working-sets").name(name + "_working_sets");
      tiers.sinkTo(sinks.missRatioCurves()).uid("sink-" + name + "-mrcs").name(name + "_mrcs");
      recommendations(tiers, false, name + "-", sinks.recommendations());
    });
  }

  /**
   * The recommendation step of {@code analyses}' operator: its estimates, keyed as it is ({@link
   * WindowEstimate#key}), -> {@link RecommendFunction} (material changes only) -> {@code sink}.
   *
   * @param hysteresis whether the recommendation in force stays while its prediction holds
   */
  private static void recommendations(SingleOutputStreamOperator<VolumeAnalysis> analyses, boolean hysteresis,
      String prefix, Sink<Recommendation> sink) {
    String what = prefix.isEmpty() ? "" : prefix.replace('-', ' ');
    analyses.getSideOutput(WorkingSetFunction.RECOMMENDATION_ESTIMATES)
        .keyBy(WindowEstimate::key, Types.STRING)
        .process(new RecommendFunction(hysteresis), Types.POJO(Recommendation.class))
        .uid(prefix + "recommendation").name(what + "recommendation")
        .sinkTo(sink).uid("sink-" + prefix + "recommendations").name(prefix.replace('-', '_') + "recommendations");
  }
}
