package io.tierwise.jobs.pacing;

import java.io.IOException;
import java.io.Serializable;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.TimerService;

/**
 * When a reference stream's long windows (24 h, 7 d and all: everything but its 1 h window,
 * {@code WindowedEstimators#writtenEachCoarseWrite}) are rewritten: once a stream is some minutes
 * old they move little in a minute, and each rewrite costs PostgreSQL a working-set row, its
 * history row and a miss ratio curve row per window (docs/rollups.md, "When rows are written").
 *
 * <p>For the stream's first {@value #COARSE_PERIODS} coarse write periods ({@link CoarseWrites})
 * they are written with its 1 h window, at every coarse write: a new stream's windows all change
 * quickly, and whoever watches a replay or a new agent sees every window final as soon as the 1 h
 * window is. After that, at most once per {@value #COARSE_PERIODS} periods (the first of them
 * shorter by the stream's phase, {@link CoarseWrites#phaseMillis}, so that streams that started
 * together write apart), or once the stream has been quiet for twice the longest gap between its
 * batches since their last write (at least {@link CoarseWrites#QUIET_MILLIS}): a live volume sends a reference batch about once a minute
 * (proto/METRICS.md), so the gap between its batches is not the end of its stream, while a stream
 * that stopped gets its final rows soon.
 *
 * <p>Keyed state: {@link CoarseWrites}' own, whether rows wait, the time of the first batch
 * (until the youth's end), of the latest and the longest gap since the last write (processing
 * time, ms). The caller's {@code onTimer} takes one {@link #writeNow} step; its batches go through
 * {@link #batch}.
 */
public final class LongWindowWrites implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The long windows' period, and how long a stream is young, in coarse write periods. */
  public static final int COARSE_PERIODS = 10;

  private final CoarseWrites writes;
  private final long youngMillis;
  private transient ValueState<Boolean> waiting;
  private transient ValueState<Long> firstBatchAt;
  private transient ValueState<Long> lastBatchAt;
  private transient ValueState<Long> longestGap;

  /** @param coarseWriteMillis the coarse write period, ms ({@link CoarseWrites}) */
  public LongWindowWrites(long coarseWriteMillis) {
    this.youngMillis = COARSE_PERIODS * coarseWriteMillis;
    this.writes = new CoarseWrites(youngMillis);
  }

  /** Declares the keyed state, named {@code name}-*. */
  public void open(RuntimeContext context, String name) {
    writes.open(context, name);
    waiting = context.getState(new ValueStateDescriptor<>(name + "-waiting", Types.BOOLEAN));
    firstBatchAt = context.getState(new ValueStateDescriptor<>(name + "-first-batch-at", Types.LONG));
    lastBatchAt = context.getState(new ValueStateDescriptor<>(name + "-last-batch-at", Types.LONG));
    longestGap = context.getState(new ValueStateDescriptor<>(name + "-longest-gap", Types.LONG));
  }

  /** A batch of the stream came at {@code nowMillis}. */
  public void batch(long nowMillis) throws IOException {
    Long last = lastBatchAt.value();
    if (last == null) {
      firstBatchAt.update(nowMillis);
    } else {
      Long longest = longestGap.value();
      longestGap.update(Math.max(longest == null ? 0 : longest, nowMillis - last));
    }
    lastBatchAt.update(nowMillis);
  }

  /**
   * One timer step: whether the long windows are to be written at {@code nowMillis}.
   *
   * @param flushed new references were flushed into them at this step
   * @param coarseWrite the stream's 1 h window is written at this step
   */
  public boolean writeNow(TimerService timers, Object key, long nowMillis, boolean flushed, boolean coarseWrite)
      throws IOException {
    if (flushed) {
      waiting.update(true);
    }
    boolean waits = waiting.value() != null;
    Long first = firstBatchAt.value();
    if (first != null) {
      if (nowMillis < first + youngMillis) {
        if (waits && coarseWrite) {
          waiting.clear();
          return true;
        }
        return false;
      }
      // The first step after the stream's youth: its periods start at the youth's end, the first
      // shorter by its phase, so streams that started together do not write together.
      writes.written(timers, key, first + youngMillis);
      firstBatchAt.clear();
    }
    Long longest = longestGap.value();
    long quietMillis = Math.max(CoarseWrites.QUIET_MILLIS, 2 * (longest == null ? 0 : longest));
    if (writes.writeNow(timers, key, nowMillis, waits, flushed, quietMillis)) {
      waiting.clear();
      longestGap.clear();
      return true;
    }
    return false;
  }
}
