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
  /** Front-end latency histograms merged over the interval's records (its volume's 10 s window: docs/rollups.md). */
  public LatencyHistograms latency = new LatencyHistograms();
  /** Cache, peer and datastore I/Os, bytes and latency summed over the interval's records. */
  public SourceIo sources = new SourceIo();
  /** The vscsiStats workload histograms merged over the interval's records. */
  public WorkloadHistograms workload = new WorkloadHistograms();
  /** The host's and the consumers' CPU time of the interval's records. */
  public CpuTimes cpu = new CpuTimes();
  /** Changed since the last flush. */
  public boolean dirty;

  /** For Flink. */
  public IntervalState() {}
}
