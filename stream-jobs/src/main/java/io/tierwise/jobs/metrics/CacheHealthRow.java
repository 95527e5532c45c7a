package io.tierwise.jobs.metrics;

/** A row of volume_cache_health_10s: one volume's cache health for one agent interval (a Flink POJO). */
public class CacheHealthRow {
  /** Tenant (UUID text). */
  public String tenantId;
  /** Volume id. */
  public String volumeId;
  /** Interval start, Unix epoch nanoseconds. */
  public long intervalStartUnixNano;
  /** The mode the volume's policy asks for: "write-through" or "write-back". */
  public String configuredMode;
  /** The mode the volume runs in: "write-through" or "write-back". */
  public String effectiveMode;
  /** Dirty bytes awaiting destage at interval end (0 when not reported). */
  public long dirtyBytes;
  /** Destage writes and datastore flushes the datastore failed in the interval (0 when not reported). */
  public long destageErrors;
  /** Tier device requests that failed in the interval (0 when not reported). */
  public long tierErrors;
  /** Front-end latency sum per ioLength bin, microseconds (index = bin). */
  public double[] latencySumMicros;
  /** Front-end I/Os per ioLength bin (index = bin). */
  public long[] latencyOps;
  /** traceparent of the span that consumed the interval's record, or null. */
  public String traceparent;

  /** For Flink. */
  public CacheHealthRow() {}
}
