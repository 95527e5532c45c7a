package io.tierwise.jobs.metrics;

/** A row of volume_metrics_10s: one volume's counters and cache health for one agent interval (a Flink POJO). */
public class VolumeMetricsRow {
  /** Tenant (UUID text). */
  public String tenantId;
  /** Volume id. */
  public String volumeId;
  /** Interval start, Unix epoch nanoseconds. */
  public long intervalStartUnixNano;
  /** Interval length, seconds. */
  public double intervalSeconds;
  /** Counters of the interval (all records of the interval summed). */
  public IoCounters io;
  /** Bytes in the tier at interval end (0 when not reported). */
  public long occupancyBytes;
  /** Tier capacity, bytes (0 when not reported). */
  public long capacityBytes;
  /** The interval's cache health, or null when its agent reported no cache mode (the columns are then NULL). */
  public IntervalCacheHealth health;
  /** traceparents of the spans that consumed the records written since the last flush. */
  public String[] traceparents = new String[0];

  /** For Flink. */
  public VolumeMetricsRow() {}
}
