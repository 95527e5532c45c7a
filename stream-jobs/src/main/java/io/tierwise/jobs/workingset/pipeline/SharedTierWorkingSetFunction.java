package io.tierwise.jobs.workingset.pipeline;

import io.tierwise.jobs.pacing.CoarseWrites;
import io.tierwise.jobs.pacing.LongWindowWrites;
import io.tierwise.jobs.workingset.estimate.MrcEstimators;
import io.tierwise.jobs.workingset.estimate.WindowEstimate;
import io.tierwise.jobs.workingset.estimate.WindowedEstimators;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A shared tier's working set and MRC ({@link SharedTier}: a cluster's, keyed by "tenant/cluster",
 * or a host's, keyed by "tenant/host"): the processed batches of its volumes ({@link
 * WorkingSetFunction#SHARED_TIER_BATCHES}, each volume's in its sequence order) go into a {@link
 * ClusterStream}, which releases their references in time order across the volumes once every
 * volume has sent {@code holdBackMillis} of reference time past them: the hold-back lets a volume
 * whose first batch comes later (its agent started or sent later) join without its references
 * being older than those already released. When no batch has come for {@code quietMillis}, the
 * references every volume has sent past are released without the hold-back. A volume that has
 * sent no batch for {@code volumeIdleMillis} no longer holds the others back, and once none has,
 * everything queued is released. A volume's batch that comes with references before those
 * released (it joined or came back) is late: they are released at the released time, in their
 * order, not dropped (counted in the metric {@value #LATE_BATCHES_METRIC}); a batch sampled with
 * another modulus is dropped (logged at WARN). A host's batches that carry the agent's shares of
 * the host's tier's windows ({@link ReferenceBatchEvent#hostTierWorkingSet}) are added up at once
 * instead ({@link ClusterStream#addShares}). Both timeouts are of processing time: an agent's
 * volumes that run in step send a minute of references each, together, once a minute
 * (proto/METRICS.md), so the tier is quiet between their requests while every volume is live.
 * Emits one {@link VolumeAnalysis} per window with the tier's id set ({@link
 * VolumeAnalysis#clusterId} or {@link VolumeAnalysis#hostId}) and every eviction policy's curve,
 * and for the {@value VolumeAnalysis#RECOMMENDATION_WINDOW} window the shared tier's {@link
 * WindowEstimate} (from the merged stream and I/O mix, with its id and volume count) on {@link
 * WorkingSetFunction#RECOMMENDATION_ESTIMATES}: due {@code flushDelayMillis} after released
 * references, emitted as a volume's are (the first at once, then at most once per {@code
 * coarseWriteMillis} or soon after the tier goes quiet: {@link CoarseWrites}; the long windows'
 * rows by {@link LongWindowWrites}' rule).
 */
public class SharedTierWorkingSetFunction extends KeyedProcessFunction<String, ReferenceBatchEvent, VolumeAnalysis> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(SharedTierWorkingSetFunction.class);
  /** The operator's counter of late batches ({@link ClusterStream#offer}). */
  public static final String LATE_BATCHES_METRIC = "lateBatches";

  private final long flushDelayMillis;
  private final CoarseWrites resultWrites;
  private final LongWindowWrites longWindowWrites;
  private final long quietMillis;
  private final long volumeIdleMillis;
  private final long holdBackNanos;
  private final MrcEstimators estimators;
  private final SharedTier tier;

  private transient ValueState<ClusterStream> cluster;
  /** Processing time of the pending flush, ms; null when none. */
  private transient ValueState<Long> flushAt;
  /** Processing time of the latest batch, ms. */
  private transient ValueState<Long> lastBatchAt;
  /** True while due results wait for their coarse write; null otherwise. */
  private transient ValueState<Boolean> resultsWaiting;
  private transient Counter lateBatches;

  /**
   * @param flushDelayMillis this long after released references the results are due, ms
   * @param coarseWriteMillis the least time between two emissions of a steadily reporting tier, ms
   * @param quietMillis after this long without a batch, what every volume has sent past is
   *     released without the hold-back, ms
   * @param volumeIdleMillis a volume that has sent no batch for this long no longer holds the
   *     others' references back, ms (once none has, everything queued is released)
   * @param holdBackMillis references wait until every volume is this far past them, ms of
   *     reference time
   * @param estimators the SHARDS method: fixed size
   * @param tier what shares the tier: the function's key is {@link SharedTier#key}
   * @throws IllegalArgumentException when {@code estimators} is fixed-rate
   */
  public SharedTierWorkingSetFunction(long flushDelayMillis, long coarseWriteMillis, long quietMillis,
      long volumeIdleMillis, long holdBackMillis, MrcEstimators estimators, SharedTier tier) {
    ClusterStream.requireFixedSize(estimators);
    this.tier = tier;
    this.flushDelayMillis = flushDelayMillis;
    this.resultWrites = new CoarseWrites(coarseWriteMillis);
    this.longWindowWrites = new LongWindowWrites(coarseWriteMillis);
    this.quietMillis = quietMillis;
    this.volumeIdleMillis = volumeIdleMillis;
    this.holdBackNanos = holdBackMillis * 1_000_000;
    this.estimators = estimators;
  }

  @Override
  public void open(OpenContext openContext) {
    cluster = getRuntimeContext().getState(new ValueStateDescriptor<>("cluster", ClusterStreamSerializer.INSTANCE));
    flushAt = getRuntimeContext().getState(new ValueStateDescriptor<>("flush-at", Types.LONG));
    lastBatchAt = getRuntimeContext().getState(new ValueStateDescriptor<>("last-batch-at", Types.LONG));
    resultsWaiting = getRuntimeContext().getState(new ValueStateDescriptor<>("results-waiting", Types.BOOLEAN));
    resultWrites.open(getRuntimeContext(), "results");
    longWindowWrites.open(getRuntimeContext(), "long-window-results");
    lateBatches = getRuntimeContext().getMetricGroup().counter(LATE_BATCHES_METRIC);
  }

  @Override
  public void processElement(ReferenceBatchEvent batch, Context ctx, Collector<VolumeAnalysis> out) throws Exception {
    ClusterStream c = cluster.value();
    if (c == null) {
      c = new ClusterStream(estimators);
    }
    long now = ctx.timerService().currentProcessingTime();
    longWindowWrites.batch(now);
    boolean shares = tier == SharedTier.HOST && batch.hostTierWorkingSet != null;
    try {
      if (shares) {
        c.addShares(batch, now);
      } else if (c.offer(batch, now)) {
        lateBatches.inc();
      }
      if (tier == SharedTier.HOST && batch.hostTier != null) {
        c.addAgentSimulations(batch.hostTier);
      }
    } catch (IllegalArgumentException e) {
      LOG.warn("{} {}: dropped batch {} of volume {}: {}", tier, ctx.getCurrentKey(), batch.batchId, batch.volumeId,
          e.getMessage());
      return;
    }
    if (shares || c.release(c.watermark(now, volumeIdleMillis) - holdBackNanos) > 0) {
      scheduleFlush(ctx, now);
    }
    lastBatchAt.update(now);
    ctx.timerService().registerProcessingTimeTimer(now + quietMillis);
    cluster.update(c);
  }

  private void scheduleFlush(Context ctx, long now) throws Exception {
    if (flushAt.value() == null) {
      flushAt.update(now + flushDelayMillis);
      ctx.timerService().registerProcessingTimeTimer(now + flushDelayMillis);
    }
  }

  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<VolumeAnalysis> out) throws Exception {
    ClusterStream c = cluster.value();
    if (c == null) {
      return;
    }
    Long last = lastBatchAt.value();
    if (last != null && timestamp >= last + quietMillis) {
      if (timestamp < last + volumeIdleMillis) {
        // What the volumes have not all sent past waits until they are idle: one timer per quiet spell.
        ctx.timerService().registerProcessingTimeTimer(last + volumeIdleMillis);
      }
      if (c.release(c.watermark(timestamp, volumeIdleMillis)) > 0) {
        scheduleFlush(ctx, timestamp);
        cluster.update(c);
      }
    }
    Long due = flushAt.value();
    boolean flushed = due != null && timestamp >= due;
    if (flushed) {
      flushAt.clear();
      resultsWaiting.update(true);
    }
    boolean shortWindows = resultWrites.writeNow(ctx.timerService(), ctx.getCurrentKey(), timestamp,
        resultsWaiting.value() != null, flushed);
    if (shortWindows) {
      resultsWaiting.clear();
    }
    boolean longWindows = longWindowWrites.writeNow(ctx.timerService(), ctx.getCurrentKey(), timestamp, flushed,
        shortWindows);
    if (shortWindows || longWindows) {
      emit(c, ctx, out, shortWindows, longWindows);
    }
  }

  /**
   * The analysis of the windows written at every coarse write ({@code shortWindows}) and of the
   * long ones ({@code longWindows}: {@link LongWindowWrites}); with the former, the recommendation
   * window's estimate.
   */
  private void emit(ClusterStream c, OnTimerContext ctx, Collector<VolumeAnalysis> out, boolean shortWindows,
      boolean longWindows) {
    WindowedEstimators w = c.estimators();
    if (w == null || w.all().references() == 0) {
      return;
    }
    String[] key = ctx.getCurrentKey().split("/", 2);
    long stateBytes = c.stateBytes();
    for (WindowedEstimators.Result r : w.results()) {
      if (WindowedEstimators.writtenEachCoarseWrite(r.window()) ? shortWindows : longWindows) {
        VolumeAnalysis a = VolumeAnalysis.of(key[0], null, w, r, stateBytes);
        tier.stamp(a, key[1]);
        a.volumes = c.volumeCount();
        out.collect(a);
      }
      if (shortWindows && r.window().equals(VolumeAnalysis.RECOMMENDATION_WINDOW)) {
        WindowEstimate e = WindowEstimate.of(r.window(), r.estimator(), c.io(), w);
        e.tenantId = key[0];
        tier.stamp(e, key[1]);
        e.volumes = c.volumeCount();
        ctx.output(WorkingSetFunction.RECOMMENDATION_ESTIMATES, e);
      }
    }
  }
}
