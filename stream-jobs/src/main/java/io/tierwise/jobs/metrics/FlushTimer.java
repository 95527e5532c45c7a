package io.tierwise.jobs.metrics;

import java.io.IOException;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.streaming.api.TimerService;

/**
 * A key's one pending flush: the processing time (ms) of its timer, kept in keyed state so that
 * a key never holds more than one flush timer however many records arrive.
 */
final class FlushTimer {
  private FlushTimer() {}

  /**
   * Makes the key's flush happen no later than {@code atMillis}: registers a timer there unless
   * one is pending at or before it; a later pending one is deleted.
   *
   * @param flushAt the key's state holding its pending flush time, ms (null: none pending)
   */
  static void atOrBefore(ValueState<Long> flushAt, TimerService timers, long atMillis) throws IOException {
    Long pending = flushAt.value();
    if (pending != null && pending <= atMillis) {
      return;
    }
    if (pending != null) {
      timers.deleteProcessingTimeTimer(pending);
    }
    timers.registerProcessingTimeTimer(atMillis);
    flushAt.update(atMillis);
  }
}
