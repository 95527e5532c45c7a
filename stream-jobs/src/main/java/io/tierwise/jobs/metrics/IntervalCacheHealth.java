package io.tierwise.jobs.metrics;

/**
 * One volume's cache health over one agent interval, as volume_metrics_10s keeps it beside the
 * interval's counters (the alert rules' columns: services/notifier signals.ts; proto/METRICS.md):
 * the records of the interval that carried the cache mode, added up. A Flink POJO.
 *
 * <p>Modes: the agent reports the mode it runs in, not the one its policy asks for, so a volume
 * that fell back from write-back to write-through reads configured write-back, effective
 * write-through ({@link MetricsRollupFunction} keeps the volume's "fell back" flag); otherwise both
 * are the reported mode.
 */
public class IntervalCacheHealth {
  /** The cache modes as the agent reports them and the columns hold them. */
  static final String WRITE_BACK = "write-back";
  static final String WRITE_THROUGH = "write-through";

  /** The mode the volume's policy asks for: "write-through" or "write-back". */
  public String configuredMode;
  /** The mode the volume runs in: "write-through" or "write-back". */
  public String effectiveMode;
  /** Dirty bytes awaiting destage at the interval's end, the latest gauge (0 when not reported). */
  public long dirtyBytes;
  /** Destage writes and datastore flushes the datastore failed in the interval. */
  public long destageErrors;
  /** Tier device requests that failed in the interval. */
  public long tierErrors;
  /** Front-end latency sum per ioLength bin (both directions), microseconds (index = bin). */
  public double[] latencySumMicros = new double[IoLengthBins.COUNT];
  /** Front-end I/Os per ioLength bin (both directions) (index = bin). */
  public long[] latencyOps = new long[IoLengthBins.COUNT];

  /** For Flink. */
  public IntervalCacheHealth() {}

  /**
   * Adds a record's cache health: its mode (the latest record's), its dirty bytes (the latest
   * gauge reported), its errors and latency (summed).
   *
   * @param h the record's health; its {@code mode} must be set
   * @param fellBack whether the volume is in a write-back to write-through fallback
   */
  void add(CacheHealth h, boolean fellBack) {
    configuredMode = fellBack ? WRITE_BACK : h.mode;
    effectiveMode = fellBack ? WRITE_THROUGH : h.mode;
    if (h.dirtyBytes >= 0) {
      dirtyBytes = h.dirtyBytes;
    }
    destageErrors += h.destageErrors;
    tierErrors += h.tierErrors;
    for (int bin = 0; bin < IoLengthBins.COUNT; bin++) {
      latencySumMicros[bin] += h.latencySumMicros[bin];
      latencyOps[bin] += h.latencyOps[bin];
    }
  }

  /** A copy sharing nothing with this one. */
  IntervalCacheHealth copy() {
    IntervalCacheHealth c = new IntervalCacheHealth();
    c.configuredMode = configuredMode;
    c.effectiveMode = effectiveMode;
    c.dirtyBytes = dirtyBytes;
    c.destageErrors = destageErrors;
    c.tierErrors = tierErrors;
    c.latencySumMicros = latencySumMicros.clone();
    c.latencyOps = latencyOps.clone();
    return c;
  }
}
