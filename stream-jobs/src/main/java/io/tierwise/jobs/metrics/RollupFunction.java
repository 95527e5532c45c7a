package io.tierwise.jobs.metrics;

import io.tierwise.jobs.pacing.CoarseWrites;
import java.util.ArrayList;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rolls the volume intervals of one scope (key "tenant|scope|scope id", see {@link
 * ScopedMetrics}) up into windows of 10 s, 1 min, 1 h and 1 d ({@link Resolutions}): counters
 * summed (front end and per source: {@link SourceIo}), latency histograms merged bucket by bucket,
 * gauges summed over volumes. A volume's scope has no 10 s windows here: its interval is that
 * window, written as its volume_metrics_10s row ({@link MetricsRollupFunction}; docs/rollups.md).
 *
 * <h2>Exactly once into PostgreSQL: idempotent upserts of complete window values</h2>
 *
 * <p>We chose idempotent writes over a two-phase-commit (XA) sink. Every row emitted is the
 * complete value of its window as of the records processed so far, keyed by (tenant, scope,
 * scope id, resolution, window start), and the sink upserts it ({@code ON CONFLICT DO UPDATE SET
 * col = EXCLUDED.col}: a replace, never an increment). The window aggregates live in Flink keyed
 * state, which a checkpoint snapshots together with the Kafka offsets of the records folded into
 * it. A job killed and restarted from that checkpoint therefore holds exactly the aggregates of
 * the records before the checkpoint's offsets, re-reads the records after them once, and writes
 * each window again as a complete value: rows written between the checkpoint and the kill are
 * overwritten, not added to, so no record is counted twice. Until the replay has caught up a row
 * may briefly show the checkpoint's (smaller) value; once it has, every row equals a run without
 * the kill (StreamJobsRestartTest). A two-phase commit would hide that transient but holds a
 * PostgreSQL transaction open per checkpoint interval per sink subtask and delays every row by a
 * checkpoint; the rows here are full values anyway, so idempotence is the simpler guarantee.
 *
 * <h2>When rows are written</h2>
 *
 * <p>Rows are not written per record: the first record after a flush starts a processing-time
 * timer of {@code flushDelayMillis}; the flush emits each changed 10 s window once. A changed
 * window of 1 min or longer is emitted by that flush when it has closed on the key's event clock
 * (the clock has passed its end: its final value, barring late records); an open one waits and
 * is written with the key's other open coarse windows at most once per {@code
 * coarseWriteMillis}, or soon after the key goes quiet ({@link CoarseWrites}). So a volume's 1 h
 * row is written about once a minute instead of at every interval, and its 1 min row once or
 * twice (docs/rollups.md: PostgreSQL writes at fleet scale, issue 17).
 *
 * <h2>Lateness: how long a window stays open</h2>
 *
 * <p>Each key keeps an event clock, the latest interval end it has seen. A window stays open
 * while it ends less than its resolution's lateness before that clock: {@link #OPEN_WINDOWS}
 * windows of its resolution, at most {@code latenessMillis} (10 s windows 5 min, 1 min windows
 * 30 min, 1 h and 1 d windows {@code latenessMillis}); a volume's scope, whose intervals come in
 * order (its agent sends them one at a time, oldest first, spooled or not), {@link
 * #VOLUME_OPEN_WINDOWS} windows (against an agent's clock stepping back); then its aggregate
 * leaves the state. A
 * record is added only to the windows still open for it: a window whose aggregate is gone (or
 * would be at once) is never overwritten with a partial value. A record late for some
 * resolutions only (an agent that spooled through an outage, at a cluster or tenant scope whose
 * clock other hosts moved on) counts in its coarser windows (metric {@code lateWindows}); one
 * late for all of them is dropped (WARN, metric {@code lateIntervals}). A volume's and a host's
 * own intervals arrive in order, so their scopes miss nothing. Bounding the fine windows keeps a
 * scope's state at about 64 windows instead of the 424 of a 1 h lateness for every resolution,
 * and a volume's at about 6, having no 10 s windows (issue 17: state per volume; docs/rollups.md).
 */
public class RollupFunction extends KeyedProcessFunction<String, ScopedMetrics, RollupRow> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(RollupFunction.class);
  private static final long NANOS_PER_SECOND = 1_000_000_000L;
  /** A window stays open for this many windows of its resolution (at most the lateness). */
  public static final int OPEN_WINDOWS = 30;
  /** A volume scope's window stays open for this many windows of its resolution (at most the lateness). */
  public static final int VOLUME_OPEN_WINDOWS = 2;

  private final long flushDelayMillis;
  private final CoarseWrites coarseWrites;
  /** Per resolution: the lateness of a cluster's, tenant's or host's windows, seconds. */
  private final long[] latenessSeconds;
  /** The same for a volume's windows. */
  private final long[] volumeLatenessSeconds;

  private transient MapState<Long, RollupCell> windows;
  private transient ValueState<Long> clockSeconds;
  private transient ValueState<Long> flushAt;
  private transient Counter lateIntervals;
  private transient Counter lateWindows;

  /**
   * @param flushDelayMillis how long after the first unflushed record the 10 s rows are emitted, ms
   * @param coarseWriteMillis how often open windows of 1 min and longer are rewritten, ms (see
   *     "When rows are written")
   * @param latenessMillis the longest a window stays open behind the key's latest interval end,
   *     ms (the coarse resolutions'; see "Lateness")
   */
  public RollupFunction(long flushDelayMillis, long coarseWriteMillis, long latenessMillis) {
    this.flushDelayMillis = flushDelayMillis;
    this.coarseWrites = new CoarseWrites(coarseWriteMillis);
    this.latenessSeconds = new long[Resolutions.SECONDS.length];
    this.volumeLatenessSeconds = new long[Resolutions.SECONDS.length];
    for (int r = 0; r < latenessSeconds.length; r++) {
      latenessSeconds[r] = Math.min(latenessMillis / 1000, OPEN_WINDOWS * Resolutions.SECONDS[r]);
      volumeLatenessSeconds[r] = Math.min(latenessMillis / 1000, VOLUME_OPEN_WINDOWS * Resolutions.SECONDS[r]);
    }
  }

  @Override
  public void open(OpenContext openContext) {
    windows = getRuntimeContext().getMapState(
        new MapStateDescriptor<>("windows", Types.LONG, Types.POJO(RollupCell.class)));
    clockSeconds = getRuntimeContext().getState(new ValueStateDescriptor<>("clock", Types.LONG));
    flushAt = getRuntimeContext().getState(new ValueStateDescriptor<>("flush-at", Types.LONG));
    coarseWrites.open(getRuntimeContext(), "coarse");
    lateIntervals = getRuntimeContext().getMetricGroup().counter("lateIntervals");
    lateWindows = getRuntimeContext().getMetricGroup().counter("lateWindows");
  }

  @Override
  public void processElement(ScopedMetrics s, Context ctx, Collector<RollupRow> out) throws Exception {
    IntervalMetrics m = s.metrics;
    long endSeconds = Math.floorDiv(m.intervalEndUnixNano, NANOS_PER_SECOND);
    long startSeconds = Math.floorDiv(m.intervalStartUnixNano, NANOS_PER_SECOND);
    Long before = clockSeconds.value();
    long clock = before == null ? endSeconds : Math.max(before, endSeconds);
    boolean volume = isVolumeScope(s.scopeKey);
    long[] lateness = volume ? volumeLatenessSeconds : latenessSeconds;
    boolean added = false;
    for (int r = volume ? 1 : 0; r < Resolutions.NAMES.length; r++) {
      long start = Resolutions.windowStart(r, startSeconds);
      if (start + Resolutions.SECONDS[r] < clock - lateness[r]) {
        lateWindows.inc();
        continue;
      }
      long key = start * Resolutions.NAMES.length + r;
      RollupCell cell = windows.get(key);
      if (cell == null) {
        cell = new RollupCell();
        cell.resolution = r;
        cell.windowStartSeconds = start;
      }
      cell.add(m);
      windows.put(key, cell);
      added = true;
    }
    if (!added) {
      lateIntervals.inc();
      LOG.warn("rollup {}: interval of volume {} ending at {} s is too far behind the latest ({} s) for every window; dropped",
          s.scopeKey, m.volumeId, endSeconds, clock);
      return;
    }
    clockSeconds.update(clock);
    if (flushAt.value() == null) {
      long at = ctx.timerService().currentProcessingTime() + flushDelayMillis;
      ctx.timerService().registerProcessingTimeTimer(at);
      flushAt.update(at);
    }
  }

  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<RollupRow> out) throws Exception {
    Long due = flushAt.value();
    if (due != null && timestamp >= due) {
      flushAt.clear();
    }
    String[] key = ctx.getCurrentKey().split("\\|", 3);
    long[] lateness = isVolumeScope(ctx.getCurrentKey()) ? volumeLatenessSeconds : latenessSeconds;
    long clock = clockSeconds.value();
    boolean coarseDue = coarseWrites.due(timestamp);
    boolean coarseWritten = false;
    boolean coarseWaiting = false;
    List<Map.Entry<Long, RollupCell>> changed = new ArrayList<>();
    Iterator<Map.Entry<Long, RollupCell>> it = windows.iterator();
    while (it.hasNext()) {
      Map.Entry<Long, RollupCell> e = it.next();
      RollupCell cell = e.getValue();
      if (cell.dirty) {
        if (cell.resolution == 0 || coarseDue || cell.windowEndSeconds() <= clock) {
          changed.add(e);
          coarseWritten |= cell.resolution > 0 && coarseDue;
        } else {
          coarseWaiting = true;
        }
      } else if (cell.windowEndSeconds() < clock - lateness[cell.resolution]) {
        it.remove();
      }
    }
    if (coarseWritten) {
      coarseWrites.written(ctx.timerService(), ctx.getCurrentKey(), timestamp);
    } else if (coarseWaiting) {
      coarseWrites.waiting(ctx.timerService(), timestamp);
    } else {
      coarseWrites.idle(timestamp);
    }
    for (Map.Entry<Long, RollupCell> e : changed) {
      RollupCell cell = e.getValue();
      out.collect(row(key, cell));
      cell.dirty = false;
      windows.put(e.getKey(), cell);
    }
  }

  /** Whether {@code scopeKey} ("tenant|scope|scope id") is a volume's. */
  private static boolean isVolumeScope(String scopeKey) {
    int scope = scopeKey.indexOf('|') + 1;
    return scopeKey.startsWith(ScopedMetrics.VOLUME + "|", scope);
  }

  private static RollupRow row(String[] key, RollupCell cell) {
    RollupRow row = new RollupRow();
    row.tenantId = key[0];
    row.scope = key[1];
    row.scopeId = key[2];
    row.resolution = Resolutions.NAMES[cell.resolution];
    row.windowStartSeconds = cell.windowStartSeconds;
    row.volumes = cell.volumeCount();
    row.io = cell.io.copy();
    for (int v = 0; v < row.volumes; v++) {
      row.occupancyBytes = SaturatingCounters.add(row.occupancyBytes, cell.occupancyBytes[v]);
      row.capacityBytes = SaturatingCounters.add(row.capacityBytes, cell.capacityBytes[v]);
    }
    row.latency = cell.latency.copy();
    row.sources = cell.sources.copy();
    row.workload = cell.workload.copy();
    row.cpu = cell.cpu.copy();
    return row;
  }
}
