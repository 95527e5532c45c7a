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
 * {@code WindowedEstimators#writtenEachCoarseWrite}) and the recommendation read from them are
 * rewritten: they move little in a minute, and each rewrite costs PostgreSQL a working-set row,
 * its history row and a miss ratio curve row per window, and the jobs a recommendation (docs/rollups.md,
 * "When rows are written"). They are written at once the first time, then at most once per
 * {@value #COARSE_PERIODS} coarse write periods ({@link CoarseWrites}), or once the stream has
 * been quiet for twice the longest gap between its batches since their last write (at least
 * {@link CoarseWrites#QUIET_MILLIS}): a live volume sends a reference batch about once a minute
 * (proto/METRICS.md), so the gap between its batches is not the end of its stream, while a
 * stream that stopped (a replay that ended) gets its final rows soon.
 *
 * <p>Keyed state: {@link CoarseWrites}' own, whether rows wait, the time of the latest batch and
 * the longest gap since the last write (processing time, ms). The caller's {@code onTimer} takes
 * one {@link #writeNow} step; its batches go through {@link #batch}.
 */
public final class LongWindowWrites implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The long windows' period, in coarse write periods. */
  public static final int COARSE_PERIODS = 10;

  private final CoarseWrites writes;
  private transient ValueState<Boolean> waiting;
  private transient ValueState<Long> lastBatchAt;
  private transient ValueState<Long> longestGap;

  /** @param coarseWriteMillis the coarse write period, ms ({@link CoarseWrites}) */
  public LongWindowWrites(long coarseWriteMillis) {
    this.writes = new CoarseWrites(COARSE_PERIODS * coarseWriteMillis);
  }

  /** Declares the keyed state, named {@code name}-*. */
  public void open(RuntimeContext context, String name) {
    writes.open(context, name);
    waiting = context.getState(new ValueStateDescriptor<>(name + "-waiting", Types.BOOLEAN));
    lastBatchAt = context.getState(new ValueStateDescriptor<>(name + "-last-batch-at", Types.LONG));
    longestGap = context.getState(new ValueStateDescriptor<>(name + "-longest-gap", Types.LONG));
  }

  /** A batch of the stream came at {@code nowMillis}. */
  public void batch(long nowMillis) throws IOException {
    Long last = lastBatchAt.value();
    if (last != null) {
      Long longest = longestGap.value();
      longestGap.update(Math.max(longest == null ? 0 : longest, nowMillis - last));
    }
    lastBatchAt.update(nowMillis);
  }

  /**
   * One timer step: whether the long windows are to be written at {@code nowMillis}.
   *
   * @param flushed new references were flushed into them at this step
   */
  public boolean writeNow(TimerService timers, Object key, long nowMillis, boolean flushed) throws IOException {
    if (flushed) {
      waiting.update(true);
    }
    Long longest = longestGap.value();
    long quietMillis = Math.max(CoarseWrites.QUIET_MILLIS, 2 * (longest == null ? 0 : longest));
    if (writes.writeNow(timers, key, nowMillis, waiting.value() != null, flushed, quietMillis)) {
      waiting.clear();
      longestGap.clear();
      return true;
    }
    return false;
  }
}
