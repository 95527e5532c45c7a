package io.tierwise.jobs.metrics;

/** A row of volume_io_stats: one volume's totals over every interval received (a Flink POJO). */
public class VolumeIoStatsRow {
  /** Tenant (UUID text). */
  public String tenantId;
  /** Volume id. */
  public String volumeId;
  /** Start of the earliest interval received, Unix epoch nanoseconds. */
  public long firstIntervalUnixNano;
  /** Start of the latest interval received, Unix epoch nanoseconds. */
  public long lastIntervalUnixNano;
  /** Sums over all intervals. */
  public IoCounters io;
  /** Tier capacity reported for the latest interval that reported it, bytes (0 when never). */
  public long capacityBytes;

  /** For Flink. */
  public VolumeIoStatsRow() {}
}
