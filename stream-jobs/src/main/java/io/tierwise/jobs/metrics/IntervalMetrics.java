package io.tierwise.jobs.metrics;

import io.tierwise.jobs.telemetry.Traced;

/**
 * One volume's telemetry for one agent interval (default 10 s), parsed from an OTLP
 * ExportMetricsServiceRequest (a Flink POJO). Gauges are -1 when the interval did not carry them.
 */
public class IntervalMetrics implements Traced {
  /** Tenant (UUID text), stamped by ingest. */
  public String tenantId;
  /** Pseudonymous volume id (resource attribute tierwise.volume.id). */
  public String volumeId;
  /** Pseudonymous host id (resource attribute host.id), or null when absent. */
  public String hostId;
  /** Pseudonymous cluster id (resource attribute tierwise.cluster.id), or null when absent. */
  public String clusterId;
  /** Interval start (the data points' start_time_unix_nano), Unix epoch nanoseconds. */
  public long intervalStartUnixNano;
  /** Interval end (time_unix_nano), Unix epoch nanoseconds. */
  public long intervalEndUnixNano;
  /** Additive counters of the interval. */
  public IoCounters io = new IoCounters();
  /** I/Os, bytes and latency per source other than the front end (cache, peer, datastore). */
  public SourceIo sources = new SourceIo();
  /** The datastore's and the peers' latency per ioLength bin (the recommendations' latency model). */
  public MeasuredLatency measuredLatency = new MeasuredLatency();
  /** Front-end I/O size distribution of the interval. */
  public BlockSizeCounts blockSizes = new BlockSizeCounts();
  /** Front-end latency histograms per direction and ioLength bin (tierwise.io.latency). */
  public LatencyHistograms latency = new LatencyHistograms();
  /** The vscsiStats workload histograms (seek distance, outstanding I/Os, interarrival). */
  public WorkloadHistograms workload = new WorkloadHistograms();
  /** The host's and the consumer's CPU time of the interval (empty: not measured, as in a replay). */
  public CpuTimes cpu = new CpuTimes();
  /** Bytes held by the tier at interval end, or -1. */
  public long occupancyBytes = -1;
  /** Tier capacity in bytes, or -1. */
  public long capacityBytes = -1;
  /** Cache health of the interval (mode, dirty bytes, fallbacks, latency sums per bin). */
  public CacheHealth health = new CacheHealth();
  /**
   * The interval's identity for deduplication: a 64-bit hash of the ingest record's batch id and
   * the interval's end ({@link OtlpMetricsParser#recordId}), the same for an agent's resend.
   */
  public long recordId;
  /** W3C traceparent of the span that consumed the record, or null (tracing off). */
  public String traceparent;

  /** For Flink. */
  public IntervalMetrics() {}

  @Override
  public void traceparent(String traceparent) {
    this.traceparent = traceparent;
  }

  /** The key the jobs partition by: "tenant/volume". */
  public String volumeKey() {
    return tenantId + "/" + volumeId;
  }

  /** Interval length in seconds. */
  public double intervalSeconds() {
    return (intervalEndUnixNano - intervalStartUnixNano) / 1e9;
  }
}
