package io.tierwise.jobs.metrics;

/**
 * The cache health signals of one volume's interval that the alert rules read
 * (volume_metrics_10s, {@link IntervalCacheHealth}; proto/METRICS.md), a Flink POJO.
 */
public class CacheHealth {
  /** Resource attribute tierwise.cache.mode: "write-through" or "write-back", or null when absent. */
  public String mode;
  /** Gauge tierwise.cache.dirty: dirty bytes awaiting destage at interval end, or -1. */
  public long dirtyBytes = -1;
  /** Sum tierwise.cache.fallbacks: write-back to write-through fallbacks in the interval. */
  public long fallbacks;
  /**
   * Sum tierwise.cache.destage.errors: destage writes and datastore flushes the datastore failed
   * in the interval (write-back keeps the blocks dirty and retries).
   */
  public long destageErrors;
  /** Sum tierwise.cache.tier.errors: tier device requests that failed in the interval (the first disables the tier). */
  public long tierErrors;
  /** Gauge tierwise.replication.peers: peers acknowledging journal records at interval end, or -1. */
  public long healthyPeers = -1;
  /**
   * Front-end latency sum per ioLength bin (both directions), microseconds: the OTLP histogram
   * points' {@code sum} (tierwise.io.latency, io.source=frontend).
   */
  public double[] latencySumMicros = new double[IoLengthBins.COUNT];
  /** Front-end I/Os per ioLength bin (both directions): the same points' {@code count}. */
  public long[] latencyOps = new long[IoLengthBins.COUNT];

  /** For Flink. */
  public CacheHealth() {}
}
