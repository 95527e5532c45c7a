package io.tierwise.jobs.recommend;

import java.util.Objects;

/**
 * A tier recommendation for one volume (a row of the recommendations table), or, with {@link
 * #clusterId} set, for a cluster's shared tier (a row of cluster_recommendations) (a Flink POJO).
 */
public class Recommendation implements Cloneable {
  /** Tenant (UUID text). */
  public String tenantId;
  /** Volume id; null for a shared tier's. */
  public String volumeId;
  /** Cluster id of a cluster's shared tier; null otherwise. */
  public String clusterId;
  /** Host id of a host's shared tier (its volumes'); null otherwise. */
  public String hostId;
  /** Volumes of the shared tier merged so far; 0 for a volume's. */
  public int volumes;
  /** Window the MRC was taken over ("24h": volume_working_sets.window_name). */
  public String windowName;
  /** Recommended tier size, bytes (a multiple of the media's size step). */
  public long tierBytes;
  /** "ram" or "nvme". */
  public String media;
  /** "write-through" or "write-back". */
  public String policy;
  /**
   * Eviction policy the prediction is for, as the services spell it (lru, s3-fifo, arc, 2q, sieve;
   * EvictionPolicy#serviceName): picked with the size.
   */
  public String eviction;
  /** Peer replicas of dirty data: 1 for write-back (WB+1), 0 for write-through. */
  public int replicas;
  /** Hit ratio the MRC predicts at tierBytes, 0..1. */
  public double predictedHitRatio;
  /** Hit ratio of an unlimited cache (1 - cold-miss ratio), 0..1. */
  public double achievableHitRatio;
  /** Target: 90 % of the achievable hit ratio, 0..1. */
  public double targetHitRatio;
  /** I/Os per second the tier keeps from the datastore (hits), predicted. */
  public double offloadedIops;
  /** Bytes per second the tier keeps from the datastore, predicted. */
  public double offloadedBytesPerSecond;
  /**
   * Bytes written to the tier per day at tierBytes under eviction, predicted: every read miss
   * admits its block, every written block goes into its slot (populate on write), and in
   * write-back also into its journal record (docs/write-back.md), in 4 KiB blocks, at the window's
   * rate of block references ({@link TierRecommender}).
   */
  public double tierWriteBytesPerDay;
  /** Mean VM-observed latency with the tier, microseconds, predicted ({@link LatencyModel}). */
  public double predictedLatencyMicros;
  /** Mean VM-observed latency without a tier (datastore only), microseconds, same model. */
  public double datastoreLatencyMicros;
  /** JSON object with everything the recommendation was computed from. */
  public String inputsJson;
  /** Plain-language reason for the portal. */
  public String explanation;

  /** For Flink. */
  public Recommendation() {}

  /**
   * This recommendation as keyed state keeps the last one emitted ({@link RecommendFunction}): every
   * field but {@link #inputsJson} and {@link #explanation}
   * (null), which neither {@link #differsMateriallyFrom} nor the recommender's hysteresis reads and
   * which are most of its bytes (a heap state is written whole at every checkpoint).
   */
  public Recommendation stateCopy() {
    try {
      Recommendation copy = (Recommendation) clone();
      copy.inputsJson = null;
      copy.explanation = null;
      return copy;
    } catch (CloneNotSupportedException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * Whether this differs materially from {@code previous}: other size, media, policy, eviction policy
   * or replicas, or a predicted hit ratio that moved by more than {@code hitRatioTolerance}.
   */
  public boolean differsMateriallyFrom(Recommendation previous, double hitRatioTolerance) {
    return previous == null
        || tierBytes != previous.tierBytes
        || !media.equals(previous.media)
        || !policy.equals(previous.policy)
        || !Objects.equals(eviction, previous.eviction)
        || replicas != previous.replicas
        || Math.abs(predictedHitRatio - previous.predictedHitRatio) > hitRatioTolerance;
  }
}
