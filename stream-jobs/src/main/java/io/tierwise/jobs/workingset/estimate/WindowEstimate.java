package io.tierwise.jobs.workingset.estimate;

import io.tierwise.jobs.metrics.MeasuredLatency;

/**
 * One window's estimate of a volume's or a shared tier's stream, apart from its estimators (a
 * Flink POJO): the curves as functions of the cache size ({@link MissRatioFunction}, {@link
 * EvictionDifferences}), the working set, the I/O mix and the latency the agent measured: what a
 * tier is recommended from. The working-set operators emit it for the recommendation window; the
 * recommender reads it on an operator of its own. Its size is that of the two distance histograms
 * (at most about 12 KiB each with fixed-size SHARDS), not of the estimators' state.
 */
public class WindowEstimate {
  /** Tenant (UUID text). */
  public String tenantId;
  /** Volume id; null for a shared tier's. */
  public String volumeId;
  /** Cluster id of a cluster's shared tier; null otherwise. */
  public String clusterId;
  /** Host id of a host's shared tier; null otherwise. */
  public String hostId;
  /** Volumes merged into a shared tier's stream (0 for a volume's). */
  public int volumes;
  /** The window ("24h", ...). */
  public String windowName;
  /** {@link MrcEstimator#method()}. */
  public String method;
  /** SHARDS rate R of the estimate. */
  public double samplingRate;
  /** Sampled references behind the curves. */
  public long sampledReferences;
  /** Estimated working set size, bytes. */
  public long wssBytes;
  /** The LRU curve of all references. */
  public MissRatioFunction missRatios;
  /** The LRU curve of the reads; null before any sampled read. */
  public MissRatioFunction readMissRatios;
  /** Each eviction policy's difference from LRU; null when the stream simulates none (LRU alone). */
  public EvictionDifferences evictions;
  /** The stream's I/O mix. */
  public IoProfile io;
  /** The datastore's and peers' latency the agent measured; null: none (assumed). */
  public MeasuredLatency measured;

  /** For Flink. */
  public WindowEstimate() {}

  /**
   * The estimate of window {@code windowName} from its estimator (ids and measured latency unset),
   * with every eviction policy's differences when {@code w} simulates them; a copy of {@code io}.
   *
   * @param w the stream's estimators, or null: LRU alone
   * @throws IllegalStateException when the estimator has no reference
   */
  public static WindowEstimate of(String windowName, MrcEstimate e, IoProfile io, WindowedEstimators w) {
    WindowEstimate x = new WindowEstimate();
    x.windowName = windowName;
    x.method = e.method();
    x.samplingRate = e.rate();
    x.sampledReferences = e.references();
    x.wssBytes = e.workingSetBytes();
    x.missRatios = e.missRatioFunction();
    x.readMissRatios = e.readMissRatioFunction().orElse(null);
    x.evictions = w != null && w.simulatesPolicies() ? w.evictionDifferences() : null;
    x.io = io.copy();
    return x;
  }

  /** The key of the operator it comes from: "tenant/volume", "tenant/cluster" or "tenant/host". */
  public String key() {
    return tenantId + "/" + (volumeId != null ? volumeId : clusterId != null ? clusterId : hostId);
  }
}
