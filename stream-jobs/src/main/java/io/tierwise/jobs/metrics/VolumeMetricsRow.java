package io.tierwise.jobs.metrics;

/**
 * A row of volume_metrics_10s: one volume's counters, cache health and window documents for one
 * agent interval, which is also the volume's 10 s rollup window (docs/rollups.md; a Flink POJO).
 */
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
  /** Front-end latency histograms of the interval. */
  public LatencyHistograms latency;
  /** Cache, peer and datastore I/Os, bytes and latency of the interval. */
  public SourceIo sources;
  /** The vscsiStats workload histograms of the interval. */
  public WorkloadHistograms workload;
  /** The host's and the consumers' CPU time of the interval. */
  public CpuTimes cpu;
  /** traceparents of the spans that consumed the records written since the last flush. */
  public String[] traceparents = new String[0];

  /** For Flink. */
  public VolumeMetricsRow() {}
}
