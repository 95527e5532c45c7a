package io.tierwise.jobs.metrics;

import io.tierwise.jobs.pacing.CoarseWrites;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rolls one volume's interval telemetry up into the rows of volume_metrics_10s (main output: the
 * interval's counters, its cache health, {@link IntervalCacheHealth}, and its window documents:
 * latency, sources, workload and CPU time, the volume scope's 10 s rollup window, which {@link
 * RollupFunction} does not keep; docs/rollups.md), volume_io_stats ({@link
 * #IO_STATS}) and volume_block_sizes ({@link #BLOCK_SIZES}). Keyed by "tenant/volume".
 *
 * <p>Every row carries the full aggregate (all records of the interval, all intervals of the
 * volume), so the PostgreSQL upserts are idempotent. Rows are not written per record: the first
 * record after a flush starts a processing-time timer of {@code flushDelayMillis}, and the flush
 * emits each changed row once; the block-size rows (a changed bin per direction and ioLength bin,
 * lifetime totals that change at almost every interval) at most once per {@code
 * coarseWriteMillis}, or soon after the volume goes quiet ({@link CoarseWrites}).
 *
 * <p>An interval's aggregate stays open to further records of the same interval (a split batch)
 * while the volume's clock, its latest interval start, is at most {@link
 * RollupFunction#VOLUME_OPEN_WINDOWS} interval lengths past the interval's start: the rule of a
 * volume scope's rollup windows, the interval being its 10 s one (a volume's intervals come in
 * order from its one agent, and resent ones are dropped before: {@link DuplicateIntervalFilter}). Then the flush drops it, so a
 * volume holds the aggregates of its last few intervals and no timer per interval, however long
 * it reports (issue 17: state per volume, docs/fleet-scale.md). A record of an interval already
 * dropped is too late for its interval row, which is never overwritten with a partial value: it
 * counts in the volume totals and block sizes only (WARN, metric {@value #LATE_INTERVALS_METRIC}).
 * The volume totals are kept for good.
 *
 * <p>Cache modes: the agent reports the mode it runs in (resource attribute tierwise.cache.mode)
 * and counts write-back to write-through fallbacks after a peer or tier device failure of a volume
 * with peers (tierwise.cache.fallbacks), not the mode its policy asks for. So the function keeps
 * one flag per volume, "fell back": set by a record with a fallback; cleared by a record in
 * write-back with a peer acknowledging again (tierwise.replication.peers &gt; 0; a write-back
 * volume with peers that restarted healthy), since a fallback only happens with peers. While it
 * is set an interval reads configured write-back, effective write-through (the write_back_fallback
 * alert's condition); otherwise both are the reported mode (a volume switched to write-through by
 * its policy has no fallback, so no alert). Records without the mode attribute add no health.
 *
 * <p>Each interval row carries the traceparents of the records that changed it since the last
 * flush, so its database write is traced to them ({@code TracedSink}); they are kept in memory
 * only, not in the checkpointed state (a restart loses the links of unflushed rows, never data).
 */
public class MetricsRollupFunction extends KeyedProcessFunction<String, IntervalMetrics, VolumeMetricsRow> {
  private static final long serialVersionUID = 1L;

  /** Side output: volume_io_stats rows. */
  public static final OutputTag<VolumeIoStatsRow> IO_STATS = new OutputTag<>("volume-io-stats") {};
  /** Side output: volume_block_sizes rows. */
  public static final OutputTag<BlockSizeRow> BLOCK_SIZES = new OutputTag<>("volume-block-sizes") {};

  /** The operator's counter of records too late for their interval's row. */
  public static final String LATE_INTERVALS_METRIC = "lateIntervals";
  private static final Logger LOG = LoggerFactory.getLogger(MetricsRollupFunction.class);

  private final long flushDelayMillis;
  private final CoarseWrites blockSizeWrites;

  private transient MapState<Long, IntervalState> intervals;
  private transient ValueState<VolumeTotals> totals;
  private transient ValueState<Long> flushAt;
  private transient ValueState<Boolean> fellBack;
  /** "key@interval start" -> traceparents of the records since the last flush (not checkpointed). */
  private transient Map<String, List<String>> traces;
  private transient Counter lateIntervals;

  /**
   * @param flushDelayMillis how long after the first unflushed record the rows are emitted, ms
   * @param coarseWriteMillis the least time between two writes of the block-size rows, ms
   */
  public MetricsRollupFunction(long flushDelayMillis, long coarseWriteMillis) {
    this.flushDelayMillis = flushDelayMillis;
    this.blockSizeWrites = new CoarseWrites(coarseWriteMillis);
  }

  @Override
  public void open(OpenContext openContext) {
    intervals = getRuntimeContext().getMapState(
        new MapStateDescriptor<>("intervals", Types.LONG, Types.POJO(IntervalState.class)));
    totals = getRuntimeContext().getState(new ValueStateDescriptor<>("totals", Types.POJO(VolumeTotals.class)));
    flushAt = getRuntimeContext().getState(new ValueStateDescriptor<>("flush-at", Types.LONG));
    fellBack = getRuntimeContext().getState(new ValueStateDescriptor<>("fell-back", Types.BOOLEAN));
    blockSizeWrites.open(getRuntimeContext(), "block-sizes");
    traces = new HashMap<>();
    lateIntervals = getRuntimeContext().getMetricGroup().counter(LATE_INTERVALS_METRIC);
  }

  @Override
  public void processElement(IntervalMetrics m, Context ctx, Collector<VolumeMetricsRow> out) throws Exception {
    VolumeTotals t = totals.value();
    boolean fallen = updateFallback(m.health);
    IntervalState interval = intervals.get(m.intervalStartUnixNano);
    if (interval == null && t != null && closed(m.intervalStartUnixNano, m.intervalEndUnixNano - m.intervalStartUnixNano,
        t.stats.lastIntervalUnixNano)) {
      lateIntervals.inc();
      LOG.warn("volume {}: interval starting at {} ns came after its row was final (the volume's latest starts at {} ns);"
          + " counted in the volume's totals only", ctx.getCurrentKey(), m.intervalStartUnixNano, t.stats.lastIntervalUnixNano);
    } else {
      addToInterval(m, fallen, interval, ctx);
    }

    if (t == null) {
      t = new VolumeTotals();
      t.stats.tenantId = m.tenantId;
      t.stats.volumeId = m.volumeId;
      t.stats.io = new IoCounters();
      t.stats.firstIntervalUnixNano = m.intervalStartUnixNano;
      t.stats.lastIntervalUnixNano = m.intervalStartUnixNano;
    }
    t.stats.io.add(m.io);
    t.stats.firstIntervalUnixNano = Math.min(t.stats.firstIntervalUnixNano, m.intervalStartUnixNano);
    t.stats.lastIntervalUnixNano = Math.max(t.stats.lastIntervalUnixNano, m.intervalStartUnixNano);
    if (m.capacityBytes >= 0 && m.intervalStartUnixNano >= t.capacityIntervalUnixNano) {
      t.stats.capacityBytes = m.capacityBytes;
      t.capacityIntervalUnixNano = m.intervalStartUnixNano;
    }
    t.dirtyBins |= t.blockSizes.add(m.blockSizes);
    t.dirty = true;
    totals.update(t);

    if (flushAt.value() == null) {
      long at = ctx.timerService().currentProcessingTime() + flushDelayMillis;
      ctx.timerService().registerProcessingTimeTimer(at);
      flushAt.update(at);
    }
  }

  /**
   * Updates the volume's "fell back" flag with a record's health (class comment).
   *
   * @return whether the volume is in a fallback after the record
   */
  private boolean updateFallback(CacheHealth h) throws Exception {
    if (h.mode == null) {
      return false;
    }
    if (h.fallbacks > 0) {
      fellBack.update(true);
      return true;
    }
    if (IntervalCacheHealth.WRITE_BACK.equals(h.mode) && h.healthyPeers > 0) {
      fellBack.clear();
      return false;
    }
    return Boolean.TRUE.equals(fellBack.value());
  }

  /**
   * Adds {@code m} to its interval's aggregate ({@code interval}, or a new one when null);
   * {@code fallen}: whether the volume is in a write-back fallback (class comment).
   */
  private void addToInterval(IntervalMetrics m, boolean fallen, IntervalState interval, Context ctx) throws Exception {
    if (interval == null) {
      interval = new IntervalState();
      interval.intervalSeconds = m.intervalSeconds();
    }
    interval.io.add(m.io);
    interval.latency.add(m.latency);
    interval.sources.add(m.sources);
    interval.workload.add(m.workload);
    interval.cpu.add(m.cpu);
    if (m.occupancyBytes >= 0) {
      interval.occupancyBytes = m.occupancyBytes;
    }
    if (m.capacityBytes >= 0) {
      interval.capacityBytes = m.capacityBytes;
    }
    if (m.health.mode != null) {
      if (interval.health == null) {
        interval.health = new IntervalCacheHealth();
      }
      interval.health.add(m.health, fallen);
    }
    interval.dirty = true;
    intervals.put(m.intervalStartUnixNano, interval);
    if (m.traceparent != null) {
      traces.computeIfAbsent(ctx.getCurrentKey() + "@" + m.intervalStartUnixNano, k -> new ArrayList<>())
          .add(m.traceparent);
    }
  }

  /**
   * Whether an interval starting at {@code startNanos} and {@code lengthNanos} long is closed when
   * the volume's latest interval starts at {@code clockNanos} (class comment).
   */
  static boolean closed(long startNanos, long lengthNanos, long clockNanos) {
    return startNanos < clockNanos - RollupFunction.VOLUME_OPEN_WINDOWS * lengthNanos;
  }

  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<VolumeMetricsRow> out) throws Exception {
    Long due = flushAt.value();
    if (due != null && timestamp >= due) {
      flushAt.clear();
      flush(timestamp, ctx, out);
    } else if (blockSizeWrites.due(timestamp)) {
      writeBlockSizes(timestamp, ctx);
    }
    dropClosedIntervals();
  }

  private void flush(long now, OnTimerContext ctx, Collector<VolumeMetricsRow> out) throws Exception {
    VolumeTotals t = totals.value();
    List<Map.Entry<Long, IntervalState>> changed = new ArrayList<>();
    for (Map.Entry<Long, IntervalState> e : intervals.entries()) {
      if (e.getValue().dirty) {
        changed.add(e);
      }
    }
    for (Map.Entry<Long, IntervalState> e : changed) {
      IntervalState s = e.getValue();
      VolumeMetricsRow row = intervalRow(t.stats, e.getKey(), s);
      List<String> rowTraces = traces.remove(ctx.getCurrentKey() + "@" + e.getKey());
      row.traceparents = rowTraces == null ? new String[0] : rowTraces.toArray(String[]::new);
      out.collect(row);
      s.dirty = false;
      intervals.put(e.getKey(), s);
    }
    if (t.dirty) {
      VolumeIoStatsRow stats = new VolumeIoStatsRow();
      stats.tenantId = t.stats.tenantId;
      stats.volumeId = t.stats.volumeId;
      stats.firstIntervalUnixNano = t.stats.firstIntervalUnixNano;
      stats.lastIntervalUnixNano = t.stats.lastIntervalUnixNano;
      stats.io = t.stats.io.copy();
      stats.capacityBytes = t.stats.capacityBytes;
      ctx.output(IO_STATS, stats);
    }
    t.dirty = false;
    totals.update(t);
    writeBlockSizes(now, ctx);
  }

  /** Emits the changed block-size rows if their write is due, else leaves them waiting. */
  private void writeBlockSizes(long now, OnTimerContext ctx) throws Exception {
    VolumeTotals t = totals.value();
    if (!blockSizeWrites.writeNow(ctx.timerService(), ctx.getCurrentKey(), now, t != null && t.dirtyBins != 0, true)) {
      return;
    }
    for (int cell = 0; cell < 2 * IoLengthBins.COUNT; cell++) {
      if ((t.dirtyBins & (1L << cell)) != 0) {
        ctx.output(BLOCK_SIZES, blockSizeRow(t, cell));
      }
    }
    t.dirtyBins = 0;
    totals.update(t);
  }

  /** Drops the written aggregates of the intervals closed on the volume's clock (class comment). */
  private void dropClosedIntervals() throws Exception {
    VolumeTotals t = totals.value();
    if (t == null) {
      return;
    }
    Iterator<Map.Entry<Long, IntervalState>> it = intervals.iterator();
    while (it.hasNext()) {
      Map.Entry<Long, IntervalState> e = it.next();
      IntervalState s = e.getValue();
      if (!s.dirty && closed(e.getKey(), Math.round(s.intervalSeconds * 1e9), t.stats.lastIntervalUnixNano)) {
        it.remove();
      }
    }
    if (intervals.isEmpty()) {
      intervals.clear(); // drops the volume's (empty) map itself
    }
  }

  private static VolumeMetricsRow intervalRow(VolumeIoStatsRow ids, long start, IntervalState s) {
    VolumeMetricsRow row = new VolumeMetricsRow();
    row.tenantId = ids.tenantId;
    row.volumeId = ids.volumeId;
    row.intervalStartUnixNano = start;
    row.intervalSeconds = s.intervalSeconds;
    row.io = s.io.copy();
    row.occupancyBytes = Math.max(0, s.occupancyBytes);
    row.capacityBytes = Math.max(0, s.capacityBytes);
    row.health = s.health == null ? null : s.health.copy();
    row.latency = s.latency.copy();
    row.sources = s.sources.copy();
    row.workload = s.workload.copy();
    row.cpu = s.cpu.copy();
    return row;
  }

  private static BlockSizeRow blockSizeRow(VolumeTotals t, int cell) {
    boolean write = cell >= IoLengthBins.COUNT;
    int bin = cell % IoLengthBins.COUNT;
    BlockSizeRow row = new BlockSizeRow();
    row.tenantId = t.stats.tenantId;
    row.volumeId = t.stats.volumeId;
    row.direction = write ? "write" : "read";
    row.binLabel = IoLengthBins.label(bin);
    row.binUpperBytes = IoLengthBins.upperBytes(bin);
    row.ops = (write ? t.blockSizes.writeOps : t.blockSizes.readOps)[bin];
    row.bytes = (write ? t.blockSizes.writeBytes : t.blockSizes.readBytes)[bin];
    return row;
  }
}
