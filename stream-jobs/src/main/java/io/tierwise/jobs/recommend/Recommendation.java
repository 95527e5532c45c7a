package io.tierwise.jobs.recommend;

/** A tier recommendation for one volume: a row of the recommendations table (a Flink POJO). */
public class Recommendation {
  /** Tenant (UUID text). */
  public String tenantId;
  /** Volume id. */
  public String volumeId;
  /** Recommended tier size, bytes (a multiple of the media's size step). */
  public long tierBytes;
  /** "ram" or "nvme". */
  public String media;
  /** "write-through" or "write-back". */
  public String policy;
  /** Hit ratio the MRC predicts at tierBytes, 0..1. */
  public double predictedHitRatio;
  /** Hit ratio of an unlimited cache (1 - cold-miss ratio), 0..1. */
  public double achievableHitRatio;
  /** Target: 90 % of the achievable hit ratio, 0..1. */
  public double targetHitRatio;
  /** JSON object with everything the recommendation was computed from. */
  public String inputsJson;
  /** Plain-language reason for the portal. */
  public String explanation;

  /** For Flink. */
  public Recommendation() {}

  /**
   * Whether this differs materially from {@code previous}: other size, media or policy, or a
   * predicted hit ratio that moved by more than {@code hitRatioTolerance}.
   */
  public boolean differsMateriallyFrom(Recommendation previous, double hitRatioTolerance) {
    return previous == null
        || tierBytes != previous.tierBytes
        || !media.equals(previous.media)
        || !policy.equals(previous.policy)
        || Math.abs(predictedHitRatio - previous.predictedHitRatio) > hitRatioTolerance;
  }
}
