package io.tierwise.jobs.pacing;

import java.io.IOException;
import java.io.Serializable;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.util.MathUtils;

/**
 * When a key's slowly read rows are rewritten: rollup windows of 1 min and longer, a volume's
 * lifetime block-size totals and its working sets and miss ratio curves change at every interval,
 * but writing each change costs PostgreSQL a row version (docs/rollups.md, "When rows are
 * written"). Changed rows wait, and are written
 * together at most once per {@code periodMillis}, or {@value #QUIET_MILLIS} ms after the key's
 * last flush when no record came since (a volume that stopped reporting gets its final rows soon,
 * not a period later). The key's first rows are written at once, and its first period is shorter
 * by the key's phase ({@link #phaseMillis}): keys that began together (a fleet that started with
 * the jobs, or jobs started without state) then write spread over the period, not all at once.
 *
 * <p>Keyed state: the time of the last write and of the pending timer (processing time, ms).
 * Serializable with its function; the state handles are made in {@link #open}. The timer is the
 * caller's: its {@code onTimer} takes one {@link #writeNow} step, or, with rows of several kinds
 * (a rollup's windows), asks {@link #due} and reports back with {@link #written},
 * {@link #waiting} or {@link #idle}.
 */
public final class CoarseWrites implements Serializable {
  private static final long serialVersionUID = 1L;

  /**
   * How long after the last flush a key counts as quiet: longer than the agent's 10 s interval
   * (DESIGN §2), so a volume that reports steadily is written once per period.
   */
  public static final long QUIET_MILLIS = 15_000;

  private final long periodMillis;
  private transient ValueState<Long> writtenAt;
  private transient ValueState<Long> timerAt;

  /** @param periodMillis the least time between two writes of a steadily reporting key, ms */
  public CoarseWrites(long periodMillis) {
    this.periodMillis = periodMillis;
  }

  /** Declares the keyed state, named {@code name}-written-at and {@code name}-timer. */
  public void open(RuntimeContext context, String name) {
    writtenAt = context.getState(new ValueStateDescriptor<>(name + "-written-at", Types.LONG));
    timerAt = context.getState(new ValueStateDescriptor<>(name + "-timer", Types.LONG));
  }

  /**
   * The whole step of a key whose rows are written together ({@link #due}, {@link #written},
   * {@link #waiting}, {@link #idle} in the one order that keeps the rule): whether the rows that
   * wait are to be written at {@code nowMillis}; when they are, the period starts again and the
   * caller writes them; when they still wait and {@code changed}, the timer moves to the end of
   * the period or of the quiet time; when none wait, a fired timer is forgotten.
   *
   * @param waiting rows wait unwritten at {@code nowMillis}
   * @param changed they changed since the last step (new records flushed into them): the quiet
   *     time counts from now
   */
  public boolean writeNow(TimerService timers, Object key, long nowMillis, boolean waiting, boolean changed)
      throws IOException {
    return writeNow(timers, key, nowMillis, waiting, changed, QUIET_MILLIS);
  }

  /**
   * {@link #writeNow(TimerService, Object, long, boolean, boolean)} for a key that counts as quiet
   * {@code quietMillis} after its last flush instead of {@value #QUIET_MILLIS}.
   */
  public boolean writeNow(TimerService timers, Object key, long nowMillis, boolean waiting, boolean changed,
      long quietMillis) throws IOException {
    if (!waiting) {
      idle(nowMillis);
      return false;
    }
    if (due(nowMillis)) {
      written(timers, key, nowMillis);
      return true;
    }
    if (changed) {
      waiting(timers, nowMillis, quietMillis);
    }
    return false;
  }

  /** Whether the waiting rows are to be written at {@code nowMillis}. */
  public boolean due(long nowMillis) throws IOException {
    Long written = writtenAt.value();
    Long timer = timerAt.value();
    return written == null || nowMillis >= written + periodMillis || (timer != null && nowMillis >= timer);
  }

  /**
   * The waiting rows of {@code key} (the caller's current key) were written at {@code nowMillis}:
   * the period starts again (the first one shorter by the key's phase), no timer is left.
   */
  public void written(TimerService timers, Object key, long nowMillis) throws IOException {
    writtenAt.update(writtenAt.value() == null ? nowMillis - phaseMillis(key) : nowMillis);
    Long timer = timerAt.value();
    if (timer != null) {
      if (timer > nowMillis) {
        timers.deleteProcessingTimeTimer(timer);
      }
      timerAt.clear();
    }
  }

  /**
   * How much shorter {@code key}'s first period is, ms in [0, periodMillis): a hash of the key
   * (murmur of its hashCode), so the same key has the same phase in every run and after a restore.
   */
  public long phaseMillis(Object key) {
    return MathUtils.murmurHash(key.hashCode()) % periodMillis;
  }

  /** Rows wait at {@code nowMillis}: the timer moves to the end of the period or of the quiet time. */
  public void waiting(TimerService timers, long nowMillis) throws IOException {
    waiting(timers, nowMillis, QUIET_MILLIS);
  }

  /** {@link #waiting(TimerService, long)} with a quiet time of {@code quietMillis}. */
  private void waiting(TimerService timers, long nowMillis, long quietMillis) throws IOException {
    long at = Math.min(writtenAt.value() + periodMillis, nowMillis + quietMillis);
    Long timer = timerAt.value();
    if (timer != null && timer == at) {
      return;
    }
    if (timer != null && timer > nowMillis) {
      timers.deleteProcessingTimeTimer(timer);
    }
    timers.registerProcessingTimeTimer(at);
    timerAt.update(at);
  }

  /** Nothing waits at {@code nowMillis}: forgets a timer that has fired. */
  public void idle(long nowMillis) throws IOException {
    Long timer = timerAt.value();
    if (timer != null && timer <= nowMillis) {
      timerAt.clear();
    }
  }
}
