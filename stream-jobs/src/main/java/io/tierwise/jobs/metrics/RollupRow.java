package io.tierwise.jobs.metrics;

/** A row of metric_rollups: one scope's complete aggregate over one window (a Flink POJO). */
public class RollupRow {
  /** Tenant (UUID text). */
  public String tenantId;
  /** volume, host, cluster or tenant. */
  public String scope;
  /** The volume, host, cluster or tenant id. */
  public String scopeId;
  /** 10s, 1m, 1h or 1d. */
  public String resolution;
  /** Window start, Unix seconds. */
  public long windowStartSeconds;
  /** Volumes that reported in the window. */
  public int volumes;
  /** Counters of the window. */
  public IoCounters io;
  /** Sum over volumes of each one's latest occupancy in the window, bytes. */
  public long occupancyBytes;
  /** Sum over volumes of each one's latest capacity in the window, bytes. */
  public long capacityBytes;
  /** Front-end latency histograms of the window. */
  public LatencyHistograms latency;
  /** Cache, peer and datastore I/Os, bytes and latency of the window. */
  public SourceIo sources;
  /** The vscsiStats workload histograms of the window. */
  public WorkloadHistograms workload;
  /** The host's and the consumers' CPU time of the window. */
  public CpuTimes cpu;

  /** For Flink. */
  public RollupRow() {}
}
