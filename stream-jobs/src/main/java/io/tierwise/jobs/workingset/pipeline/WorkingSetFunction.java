package io.tierwise.jobs.workingset.pipeline;

import io.tierwise.jobs.metrics.MeasuredLatency;
import io.tierwise.jobs.pacing.CoarseWrites;
import io.tierwise.jobs.pacing.LongWindowWrites;
import io.tierwise.jobs.workingset.estimate.IoProfile;
import io.tierwise.jobs.workingset.estimate.MissRatioCurve;
import io.tierwise.jobs.workingset.estimate.MrcEstimators;
import io.tierwise.jobs.workingset.estimate.ShardsFixedRate;
import io.tierwise.jobs.workingset.estimate.WindowEstimate;
import io.tierwise.jobs.workingset.estimate.WindowShares;
import io.tierwise.jobs.workingset.estimate.WindowedEstimators;
import io.tierwise.jobs.workingset.estimate.WindowedEstimatorsSerializer;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumes one volume's {@link ReferenceBatchEvent}s in sequence order and keeps its SHARDS
 * estimators over the windows 1 h, 24 h, 7 d and all ({@link WindowedEstimators}, fixed-size by
 * default) and its I/O mix ({@link IoProfile}); emits one {@link VolumeAnalysis} per window
 * (working set sizes, the MRC on {@link MissRatioCurve#cacheSizeGrid}), and for the
 * {@value VolumeAnalysis#RECOMMENDATION_WINDOW} window its {@link WindowEstimate} (curves, I/O mix,
 * measured latency) on {@link #RECOMMENDATION_ESTIMATES}, which the job's recommendation step
 * reads. Keyed by "tenant/volume".
 *
 * <p>When results are emitted: {@code flushDelayMillis} after a processed batch the results are
 * due; the volume's first are emitted then, later ones at most once per {@code coarseWriteMillis}
 * or {@value CoarseWrites#QUIET_MILLIS} ms after the volume's last flush when no batch came since
 * ({@link CoarseWrites}; docs/rollups.md "When rows are written"): every window's working set and
 * curve, and the recommendation computed from them, change a little with each batch, and each
 * emission costs three PostgreSQL rows per window and a recommendation. That is the 1 h window's
 * rule and the recommendation window's estimate's; the long windows' rows follow {@link
 * LongWindowWrites}' (with the 1 h window while the volume is young, then at most once per ten
 * periods, or once it has been quiet for twice the longest gap between its batches).
 *
 * <p>Order: batch {@code n} is processed after {@code 0..n-1}. A batch that comes early is held
 * back; when the missing ones have not come {@code gapTimeoutMillis} later, or more than
 * {@code maxPendingBatches} wait, the gap is skipped (logged at WARN). A batch with a sequence
 * already passed is a duplicate (dropped) unless its references start after everything processed:
 * then the agent restarted its sequence, and the stream continues from it. A change of sampling
 * parameters or of the distinct-block sketch's precision restarts the estimate (the old and new
 * samples cannot be mixed), except with fixed-size estimators a lower threshold T (the agent's bounded
 * sample lowered it: the estimators evict the blocks above it and go on) or a higher one (the agent
 * restarted with its sample afresh: the estimators keep their own T and go on, so the windows of a
 * volume outlive agent restarts). Each batch's stream totals go to {@link ShardsFixedRate#addStreamTotals};
 * a skipped gap loses its batches' considered references and sketch register rises together with
 * their sampled references. A batch with the agent's working-set shares ({@link WindowShares}: the
 * agent ran the windows over its references) is added up instead of simulated ({@link
 * WindowedEstimators#addShares}); the windows restart at the first such batch, at a batch of another
 * sample (an agent restarted without its sample) and at a batch without shares after them
 * (docs/analytics.md "Windows on the agent").
 *
 * <p>Second input: the volume's metrics intervals' {@link VolumeLatency}, added up since the
 * volume's first ({@link MeasuredLatency}, as the I/O mix is) and sent with the estimate: the
 * recommendation's latency model uses the datastore's and the peers' latency where the agent
 * measured it (docs/analytics.md "Measured latency"). Before the volume's first batch it emits
 * nothing; after it, an interval makes the recommendation window's estimate due again (written as
 * the results are, above; the windows' rows do not depend on it), so the last recommendation holds
 * every input whichever topic came last.
 */
public class WorkingSetFunction
    extends KeyedCoProcessFunction<String, ReferenceBatchEvent, VolumeLatency, VolumeAnalysis> {
  private static final long serialVersionUID = 1L;
  /**
   * Side output: every batch of a volume that shares a tier (its host's, when it names one, and its
   * cluster's), once processed, in the volume's sequence order (duplicates dropped, gaps skipped),
   * for {@link SharedTierWorkingSetFunction}.
   */
  public static final OutputTag<ReferenceBatchEvent> SHARED_TIER_BATCHES =
      new OutputTag<>("cluster-batches", Types.POJO(ReferenceBatchEvent.class));
  /**
   * Side output: the {@value VolumeAnalysis#RECOMMENDATION_WINDOW} window's estimate at each
   * emission, what a tier is recommended from (also {@link SharedTierWorkingSetFunction}'s).
   */
  public static final OutputTag<WindowEstimate> RECOMMENDATION_ESTIMATES =
      new OutputTag<>("recommendation-estimates", Types.POJO(WindowEstimate.class));
  private static final Logger LOG = LoggerFactory.getLogger(WorkingSetFunction.class);

  private final long flushDelayMillis;
  private final CoarseWrites resultWrites;
  private final LongWindowWrites longWindowWrites;
  private final long gapTimeoutMillis;
  private final int maxPendingBatches;
  private final MrcEstimators estimators;

  private transient ValueState<WindowedEstimators> shards;
  private transient ValueState<IoProfile> ioProfile;
  private transient ValueState<MeasuredLatency> measuredLatency;
  private transient ValueState<VolumeStream> stream;
  private transient MapState<Long, ReferenceBatchEvent> pending;

  /**
   * @param flushDelayMillis this long after a processed batch its results are due, ms
   * @param coarseWriteMillis the least time between two emissions of a steadily reporting volume, ms
   * @param gapTimeoutMillis how long batches wait for a missing sequence number, ms
   * @param maxPendingBatches how many batches may wait before the gap is skipped at once
   * @param estimators the SHARDS method of every window
   */
  public WorkingSetFunction(long flushDelayMillis, long coarseWriteMillis, long gapTimeoutMillis, int maxPendingBatches,
      MrcEstimators estimators) {
    this.flushDelayMillis = flushDelayMillis;
    this.resultWrites = new CoarseWrites(coarseWriteMillis);
    this.longWindowWrites = new LongWindowWrites(coarseWriteMillis);
    this.gapTimeoutMillis = gapTimeoutMillis;
    this.maxPendingBatches = maxPendingBatches;
    this.estimators = estimators;
  }

  @Override
  public void open(OpenContext openContext) {
    shards = getRuntimeContext().getState(new ValueStateDescriptor<>("shards", WindowedEstimatorsSerializer.INSTANCE));
    ioProfile = getRuntimeContext().getState(new ValueStateDescriptor<>("io-profile", Types.POJO(IoProfile.class)));
    measuredLatency = getRuntimeContext().getState(
        new ValueStateDescriptor<>("measured-latency", Types.POJO(MeasuredLatency.class)));
    stream = getRuntimeContext().getState(new ValueStateDescriptor<>("stream", Types.POJO(VolumeStream.class)));
    pending = getRuntimeContext().getMapState(
        new MapStateDescriptor<>("pending", Types.LONG, Types.POJO(ReferenceBatchEvent.class)));
    resultWrites.open(getRuntimeContext(), "results");
    longWindowWrites.open(getRuntimeContext(), "long-window-results");
  }

  @Override
  public void processElement1(ReferenceBatchEvent batch, Context ctx, Collector<VolumeAnalysis> out) throws Exception {
    VolumeStream st = stream.value();
    if (st == null) {
      st = new VolumeStream();
      st.tenantId = batch.tenantId;
      st.volumeId = batch.volumeId;
    }
    long now = ctx.timerService().currentProcessingTime();
    longWindowWrites.batch(now);
    if (batch.sequence == st.nextSequence) {
      process(st, batch, ctx);
      drain(st, ctx);
    } else if (batch.sequence > st.nextSequence) {
      pending.put(batch.sequence, batch);
      st.pendingBatches++;
      if (st.pendingBatches > maxPendingBatches) {
        skipGap(st, maxPendingBatches + " batches waiting", ctx);
      }
    } else if (batch.sampledReferences() > 0 && batch.firstReferenceUnixNano() > st.windowEndUnixNano) {
      LOG.info("volume {}: sequence restarted at {} (expected {}): the agent restarted", batch.volumeKey(),
          batch.sequence, st.nextSequence);
      dropPending(st, "superseded by the agent's restart");
      st.nextSequence = batch.sequence;
      process(st, batch, ctx);
    } else {
      LOG.warn("volume {}: dropped duplicate batch {} (sequence {}, expected {})", batch.volumeKey(), batch.batchId,
          batch.sequence, st.nextSequence);
    }
    scheduleTimers(st, ctx, now);
    stream.update(st);
  }

  /** Adds a metrics interval's measured latency (class doc). */
  @Override
  public void processElement2(VolumeLatency interval, Context ctx, Collector<VolumeAnalysis> out) throws Exception {
    MeasuredLatency m = measuredLatency.value();
    if (m == null) {
      m = new MeasuredLatency();
    }
    m.add(interval.latency);
    measuredLatency.update(m);
    VolumeStream st = stream.value();
    if (st != null) {
      // The recommendation's latency model changed: its estimate is due again (not the windows'
      // rows, which do not depend on it), so a volume whose last intervals came after its last
      // references is not left with a recommendation made without them.
      st.latencySinceFlush = true;
      scheduleTimers(st, ctx, ctx.timerService().currentProcessingTime());
      stream.update(st);
    }
  }

  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<VolumeAnalysis> out) throws Exception {
    VolumeStream st = stream.value();
    if (st.gapDeadlineMillis != 0 && timestamp >= st.gapDeadlineMillis) {
      st.gapDeadlineMillis = 0;
      if (st.pendingBatches > 0) {
        skipGap(st, "nothing came for " + gapTimeoutMillis + " ms", ctx);
      }
    }
    boolean flushed = st.flushAtMillis != 0 && timestamp >= st.flushAtMillis;
    boolean referencesFlushed = flushed && st.processedSinceFlush;
    if (flushed) {
      st.flushAtMillis = 0;
      st.resultsWaiting |= st.processedSinceFlush;
      st.estimateWaiting |= st.latencySinceFlush;
      st.processedSinceFlush = false;
      st.latencySinceFlush = false;
    }
    boolean rows = st.resultsWaiting;
    boolean coarseWrite = resultWrites.writeNow(ctx.timerService(), ctx.getCurrentKey(), timestamp,
        st.resultsWaiting || st.estimateWaiting, flushed);
    if (coarseWrite) {
      st.resultsWaiting = false;
      st.estimateWaiting = false;
    }
    boolean longWindows = longWindowWrites.writeNow(ctx.timerService(), ctx.getCurrentKey(), timestamp,
        referencesFlushed, coarseWrite && rows);
    if (coarseWrite || longWindows) {
      emit(st, ctx, out, coarseWrite && rows, longWindows, coarseWrite);
    }
    scheduleTimers(st, ctx, timestamp);
    stream.update(st);
  }

  /**
   * The analysis of the window written at every coarse write ({@code shortWindow}) and of the long
   * ones ({@code longWindows}: {@link LongWindowWrites}), and with {@code estimate} the
   * recommendation window's estimate.
   */
  private void emit(VolumeStream st, OnTimerContext ctx, Collector<VolumeAnalysis> out, boolean shortWindow,
      boolean longWindows, boolean estimate) throws Exception {
    WindowedEstimators w = shards.value();
    if (w == null || w.all().references() == 0) {
      // No batch processed yet: its latency came while its first batches wait (a backlog).
      return;
    }
    long stateBytes = w.stateBytes();
    for (WindowedEstimators.Result r : w.results()) {
      if (WindowedEstimators.writtenEachCoarseWrite(r.window()) ? shortWindow : longWindows) {
        out.collect(VolumeAnalysis.of(st.tenantId, st.volumeId, w, r, stateBytes));
      }
      if (estimate && r.window().equals(VolumeAnalysis.RECOMMENDATION_WINDOW)) {
        ctx.output(RECOMMENDATION_ESTIMATES, estimate(st, w, r));
      }
    }
  }

  /**
   * Registers the flush timer after new references or a latency interval, and the gap timer while
   * batches wait.
   */
  private void scheduleTimers(VolumeStream st, Context ctx, long now) {
    if (st.flushAtMillis == 0 && (st.processedSinceFlush || st.latencySinceFlush)) {
      st.flushAtMillis = now + flushDelayMillis;
      ctx.timerService().registerProcessingTimeTimer(st.flushAtMillis);
    }
    if (st.pendingBatches > 0 && st.gapDeadlineMillis == 0) {
      st.gapDeadlineMillis = now + gapTimeoutMillis;
      ctx.timerService().registerProcessingTimeTimer(st.gapDeadlineMillis);
    } else if (st.pendingBatches == 0 && st.gapDeadlineMillis != 0) {
      ctx.timerService().deleteProcessingTimeTimer(st.gapDeadlineMillis);
      st.gapDeadlineMillis = 0;
    }
  }

  private void process(VolumeStream st, ReferenceBatchEvent batch, Context ctx) throws Exception {
    if (SharedTier.CLUSTER.key(batch) != null || SharedTier.HOST.key(batch) != null) {
      ctx.output(SHARED_TIER_BATCHES, batch);
    }
    WindowedEstimators w = shards.value();
    IoProfile io = ioProfile.value();
    boolean sketchChanged = w != null && w.all().sketchPrecision() != 0 && batch.distinctBlocksHllPrecision != 0
        && w.all().sketchPrecision() != batch.distinctBlocksHllPrecision;
    int threshold = w == null ? 0 : Long.compareUnsigned(batch.samplingThreshold, w.threshold());
    boolean lowered = threshold < 0 && w.followsLowerThreshold();
    // A higher T: the agent restarted with its sample afresh (or a higher rate); fixed-size
    // estimators keep their own, lower T and go on, so a restart keeps the volume's windows.
    // Windows that add up the agent's shares expect it at every batch after a restart that kept
    // the agent's sample (its batcher starts at the sampler's T again): nothing to say.
    boolean raised = threshold > 0 && w.followsLowerThreshold();
    if (raised && !w.takesShares()) {
      LOG.info("volume {}: the agent samples at T/P = {}/{} again, above the estimators' {}; the windows go on",
          batch.volumeKey(), Long.toUnsignedString(batch.samplingThreshold), Long.toUnsignedString(batch.samplingModulus),
          Long.toUnsignedString(w.threshold()));
    }
    String sharesChanged = w == null ? null : sharesChange(w, batch);
    if (sharesChanged != null) {
      LOG.info("volume {}: {}; the working-set windows restart", batch.volumeKey(), sharesChanged);
    }
    if (w == null || w.modulus() != batch.samplingModulus || (threshold != 0 && !lowered && !raised) || sketchChanged
        || sharesChanged != null) {
      if (w != null && sharesChanged == null) {
        LOG.warn("volume {}: sampling changed from T/P = {}/{}, HyperLogLog p = {} to {}/{}, p = {};"
            + " the working-set window restarts", batch.volumeKey(), Long.toUnsignedString(w.threshold()),
            Long.toUnsignedString(w.modulus()), w.all().sketchPrecision(), Long.toUnsignedString(batch.samplingThreshold),
            Long.toUnsignedString(batch.samplingModulus), batch.distinctBlocksHllPrecision);
      }
      w = WindowedEstimators.withPolicies(estimators, batch.samplingModulus, batch.samplingThreshold);
      io = new IoProfile();
      st.windowStartUnixNano = 0;
      st.windowEndUnixNano = 0;
    } else if (lowered) {
      w.lowerThreshold(batch.samplingThreshold);
    }
    w.addStreamTotals(batch.consideredReferences, batch.distinctBlocksHllPrecision, batch.distinctBlocksHllUpdates);
    w.addLruAnchor(batch.lruAnchorHits, batch.lruAnchorBlocks);
    if (batch.miniature != null) {
      w.addAgentSimulations(batch.miniature);
    }
    boolean shares = batch.workingSet != null && w.accepts(batch.workingSet);
    if (shares) {
      w.addShares(batch.workingSet);
    }
    if (!shares) {
      for (int i = 0; i < batch.size(); i++) {
        w.reference(batch.blockHashes[i], batch.writes[i], batch.referenceTimeUnixNano(i));
      }
    }
    batch.addIoMix(io);
    if (batch.consideredReferences > 0) {
      st.processedSinceFlush = true;
    }
    if (batch.sampledReferences() > 0) {
      long first = batch.firstReferenceUnixNano();
      long last = batch.lastReferenceUnixNano();
      st.windowStartUnixNano = st.windowStartUnixNano == 0 ? first : Math.min(st.windowStartUnixNano, first);
      st.windowEndUnixNano = Math.max(st.windowEndUnixNano, last);
      st.processedSinceFlush = true;
    }
    st.nextSequence = batch.sequence + 1;
    shards.update(w);
    ioProfile.update(io);
  }

  /**
   * Why the windows {@code w} cannot go on with {@code batch} as to the agent's shares, or null when
   * they can: windows that add up the agent's shares need every batch's, of the same sample (an
   * agent that restarted without its sample starts another); windows that simulate the references
   * switch to the shares of an agent that sends them (once, at its upgrade).
   */
  private String sharesChange(WindowedEstimators w, ReferenceBatchEvent batch) {
    if (w.takesShares()) {
      if (batch.workingSet == null || !estimators.takesShares(batch.workingSet.maxSamples)) {
        return "the agent no longer sends the working-set windows' shares of the service's sample";
      }
      return w.accepts(batch.workingSet) ? null : "the agent started its working-set sample afresh";
    }
    if (batch.workingSet != null && estimators.takesShares(batch.workingSet.maxSamples) && !w.accepts(batch.workingSet)) {
      return "the agent sends the working-set windows' shares of its sample";
    }
    return null;
  }

  /** Processes waiting batches while they continue the sequence. */
  private void drain(VolumeStream st, Context ctx) throws Exception {
    ReferenceBatchEvent next;
    while (st.pendingBatches > 0 && (next = pending.get(st.nextSequence)) != null) {
      pending.remove(st.nextSequence);
      st.pendingBatches--;
      process(st, next, ctx);
    }
  }

  /** Gives up on the missing sequence numbers before the earliest waiting batch. */
  private void skipGap(VolumeStream st, String why, Context ctx) throws Exception {
    long earliest = Long.MAX_VALUE;
    for (Long seq : pending.keys()) {
      earliest = Math.min(earliest, seq);
    }
    LOG.warn("volume {}/{}: batches {}..{} missing ({}); continuing at {}", st.tenantId, st.volumeId,
        st.nextSequence, earliest - 1, why, earliest);
    st.nextSequence = earliest;
    drain(st, ctx);
  }

  private void dropPending(VolumeStream st, String why) throws Exception {
    if (st.pendingBatches > 0) {
      List<Long> dropped = new ArrayList<>();
      pending.keys().forEach(dropped::add);
      LOG.warn("volume {}/{}: dropped waiting batches {} ({})", st.tenantId, st.volumeId, dropped, why);
      pending.clear();
      st.pendingBatches = 0;
    }
  }

  /** The window's estimate with the volume's I/O mix and measured latency (copies). */
  private WindowEstimate estimate(VolumeStream st, WindowedEstimators w, WindowedEstimators.Result r)
      throws Exception {
    WindowEstimate e = WindowEstimate.of(r.window(), r.estimator(), ioProfile.value(), w);
    e.tenantId = st.tenantId;
    e.volumeId = st.volumeId;
    MeasuredLatency measured = measuredLatency.value();
    if (measured != null) {
      e.measured = new MeasuredLatency();
      e.measured.add(measured);
    }
    return e;
  }
}
