package io.tierwise.jobs.workingset;

import io.tierwise.jobs.recommend.TierRecommender;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumes one volume's {@link ReferenceBatchEvent}s in sequence order and keeps its fixed-rate
 * SHARDS estimator ({@link ShardsFixedRate}); emits a {@link VolumeAnalysis} (working set sizes,
 * the MRC on {@link MissRatioCurve#cacheSizeGrid}, and the {@link TierRecommender}
 * recommendation) at most once per {@code flushDelayMillis} of processing time. Keyed by
 * "tenant/volume"; the window is 'all' (everything received).
 *
 * <p>Order: batch {@code n} is processed after {@code 0..n-1}. A batch that comes early is held
 * back; when the missing ones have not come {@code gapTimeoutMillis} later, or more than
 * {@code maxPendingBatches} wait, the gap is skipped (logged at WARN). A batch with a sequence
 * already passed is a duplicate (dropped) unless its references start after everything processed:
 * then the agent restarted its sequence, and the stream continues from it. A change of sampling
 * parameters or of the distinct-block sketch's precision restarts the estimate (the old and new
 * samples cannot be mixed). Each batch's stream totals go to {@link ShardsFixedRate#addStreamTotals};
 * a skipped gap loses its batches' considered references and sketch register rises together with
 * their sampled references.
 */
public class WorkingSetFunction extends KeyedProcessFunction<String, ReferenceBatchEvent, VolumeAnalysis> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(WorkingSetFunction.class);

  private final long flushDelayMillis;
  private final long gapTimeoutMillis;
  private final int maxPendingBatches;

  private transient ValueState<ShardsFixedRate> shards;
  private transient ValueState<VolumeStream> stream;
  private transient MapState<Long, ReferenceBatchEvent> pending;

  /**
   * @param flushDelayMillis at most this long after a processed batch its result is emitted, ms
   * @param gapTimeoutMillis how long batches wait for a missing sequence number, ms
   * @param maxPendingBatches how many batches may wait before the gap is skipped at once
   */
  public WorkingSetFunction(long flushDelayMillis, long gapTimeoutMillis, int maxPendingBatches) {
    this.flushDelayMillis = flushDelayMillis;
    this.gapTimeoutMillis = gapTimeoutMillis;
    this.maxPendingBatches = maxPendingBatches;
  }

  @Override
  public void open(OpenContext openContext) {
    shards = getRuntimeContext().getState(new ValueStateDescriptor<>("shards", ShardsFixedRateSerializer.INSTANCE));
    stream = getRuntimeContext().getState(new ValueStateDescriptor<>("stream", Types.POJO(VolumeStream.class)));
    pending = getRuntimeContext().getMapState(
        new MapStateDescriptor<>("pending", Types.LONG, Types.POJO(ReferenceBatchEvent.class)));
  }

  @Override
  public void processElement(ReferenceBatchEvent batch, Context ctx, Collector<VolumeAnalysis> out) throws Exception {
    VolumeStream st = stream.value();
    if (st == null) {
      st = new VolumeStream();
      st.tenantId = batch.tenantId;
      st.volumeId = batch.volumeId;
    }
    long now = ctx.timerService().currentProcessingTime();
    if (batch.sequence == st.nextSequence) {
      process(st, batch);
      drain(st);
    } else if (batch.sequence > st.nextSequence) {
      pending.put(batch.sequence, batch);
      st.pendingBatches++;
      if (st.pendingBatches > maxPendingBatches) {
        skipGap(st, maxPendingBatches + " batches waiting");
      }
    } else if (batch.size() > 0 && batch.referenceTimeUnixNano(0) > st.windowEndUnixNano) {
      LOG.info("volume {}: sequence restarted at {} (expected {}): the agent restarted", batch.volumeKey(),
          batch.sequence, st.nextSequence);
      dropPending(st, "superseded by the agent's restart");
      st.nextSequence = batch.sequence;
      process(st, batch);
    } else {
      LOG.warn("volume {}: dropped duplicate batch {} (sequence {}, expected {})", batch.volumeKey(), batch.batchId,
          batch.sequence, st.nextSequence);
    }
    scheduleTimers(st, ctx, now);
    stream.update(st);
  }

  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<VolumeAnalysis> out) throws Exception {
    VolumeStream st = stream.value();
    if (st.gapDeadlineMillis != 0 && timestamp >= st.gapDeadlineMillis) {
      st.gapDeadlineMillis = 0;
      if (st.pendingBatches > 0) {
        skipGap(st, "nothing came for " + gapTimeoutMillis + " ms");
      }
    }
    if (st.flushAtMillis != 0 && timestamp >= st.flushAtMillis) {
      st.flushAtMillis = 0;
      st.processedSinceFlush = false;
      ShardsFixedRate s = shards.value();
      if (s.references() > 0) {
        out.collect(analysis(st, s));
      }
    }
    scheduleTimers(st, ctx, timestamp);
    stream.update(st);
  }

  /** Registers the flush timer after new references, and the gap timer while batches wait. */
  private void scheduleTimers(VolumeStream st, Context ctx, long now) {
    if (st.flushAtMillis == 0 && st.processedSinceFlush) {
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

  private void process(VolumeStream st, ReferenceBatchEvent batch) throws Exception {
    ShardsFixedRate s = shards.value();
    boolean sketchChanged = s != null && s.sketchPrecision() != 0 && batch.distinctBlocksHllPrecision != 0
        && s.sketchPrecision() != batch.distinctBlocksHllPrecision;
    if (s == null || s.modulus() != batch.samplingModulus || s.threshold() != batch.samplingThreshold
        || sketchChanged) {
      if (s != null) {
        LOG.warn("volume {}: sampling changed from T/P = {}/{}, HyperLogLog p = {} to {}/{}, p = {};"
            + " the working-set window restarts", batch.volumeKey(), Long.toUnsignedString(s.threshold()),
            Long.toUnsignedString(s.modulus()), s.sketchPrecision(), Long.toUnsignedString(batch.samplingThreshold),
            Long.toUnsignedString(batch.samplingModulus), batch.distinctBlocksHllPrecision);
      }
      s = new ShardsFixedRate(batch.samplingModulus, batch.samplingThreshold);
      st.windowStartUnixNano = 0;
      st.windowEndUnixNano = 0;
    }
    s.addStreamTotals(batch.consideredReferences, batch.distinctBlocksHllPrecision, batch.distinctBlocksHllUpdates);
    for (int i = 0; i < batch.size(); i++) {
      s.reference(batch.blockHashes[i], batch.writes[i]);
    }
    if (batch.consideredReferences > 0) {
      st.processedSinceFlush = true;
    }
    if (batch.size() > 0) {
      long first = batch.referenceTimeUnixNano(0);
      long last = batch.referenceTimeUnixNano(batch.size() - 1);
      st.windowStartUnixNano = st.windowStartUnixNano == 0 ? first : Math.min(st.windowStartUnixNano, first);
      st.windowEndUnixNano = Math.max(st.windowEndUnixNano, last);
      st.processedSinceFlush = true;
    }
    st.nextSequence = batch.sequence + 1;
    shards.update(s);
  }

  /** Processes waiting batches while they continue the sequence. */
  private void drain(VolumeStream st) throws Exception {
    ReferenceBatchEvent next;
    while (st.pendingBatches > 0 && (next = pending.get(st.nextSequence)) != null) {
      pending.remove(st.nextSequence);
      st.pendingBatches--;
      process(st, next);
    }
  }

  /** Gives up on the missing sequence numbers before the earliest waiting batch. */
  private void skipGap(VolumeStream st, String why) throws Exception {
    long earliest = Long.MAX_VALUE;
    for (Long seq : pending.keys()) {
      earliest = Math.min(earliest, seq);
    }
    LOG.warn("volume {}/{}: batches {}..{} missing ({}); continuing at {}", st.tenantId, st.volumeId,
        st.nextSequence, earliest - 1, why, earliest);
    st.nextSequence = earliest;
    drain(st);
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

  private static VolumeAnalysis analysis(VolumeStream st, ShardsFixedRate s) {
    VolumeAnalysis a = new VolumeAnalysis();
    a.tenantId = st.tenantId;
    a.volumeId = st.volumeId;
    a.windowStartUnixNano = st.windowStartUnixNano;
    a.windowEndUnixNano = st.windowEndUnixNano;
    a.wssBytes = s.workingSetBytes();
    a.wssReadBytes = s.readWorkingSetBytes();
    a.wssWriteBytes = s.writeWorkingSetBytes();
    a.sampledReferences = s.references();
    a.samplingRate = s.rate();
    MissRatioCurve mrc = s.missRatioCurve(MissRatioCurve.cacheSizeGrid(a.wssBytes));
    a.mrcCacheBytes = mrc.cacheBytes();
    a.mrcMissRatios = mrc.missRatios();
    a.recommendation = TierRecommender.recommend(new TierRecommender.Input(st.tenantId, st.volumeId, mrc,
        s::missRatioAt, (double) s.readReferences() / s.references(), a.wssBytes, s.rate(), s.references()))
        .orElse(null);
    return a;
  }
}
