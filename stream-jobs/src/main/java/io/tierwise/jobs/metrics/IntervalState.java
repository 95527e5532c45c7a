package io.tierwise.jobs.metrics;

/** Per-interval aggregate kept by {@link MetricsRollupFunction} (a Flink POJO). */
public class IntervalState {
  /** Interval length, seconds. */
  public double intervalSeconds;
  /** Counters summed over the interval's records. */
  public IoCounters io = new IoCounters();
  /** Latest occupancy gauge, bytes, or -1. */
  public long occupancyBytes = -1;
  /** Latest capacity gauge, bytes, or -1. */
  public long capacityBytes = -1;
  /** Changed since the last flush. */
  public boolean dirty;

  /** For Flink. */
  public IntervalState() {}
}
