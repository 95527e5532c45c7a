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
  /** The cache health of the interval's records that carried a cache mode, or null when none did. */
  public IntervalCacheHealth health;
  /** Changed since the last flush. */
  public boolean dirty;

  /** For Flink. */
  public IntervalState() {}
}
