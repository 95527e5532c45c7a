package io.tierwise.jobs.workingset;

import io.tierwise.jobs.recommend.Recommendation;

/**
 * One volume's working set, miss ratio curve and (for {@link #RECOMMENDATION_WINDOW})
 * recommendation over one window ({@link WindowedEstimators}), as computed by {@link
 * WorkingSetFunction} (a Flink POJO). Feeds volume_working_sets, volume_mrcs and recommendations.
 */
public class VolumeAnalysis {
  /** The window recommendations are computed over: a day, so a daily cycle is in it. */
  public static final String RECOMMENDATION_WINDOW = "24h";

  /** Window name: "1h", "24h", "7d" or "all". */
  public String windowName;
  /** {@link MrcEstimator#method()}. */
  public String method;
  /** Bytes of the volume's whole SHARDS state (every window), as checkpointed. */
  public long stateBytes;
  /** Tenant (UUID text). */
  public String tenantId;
  /** Volume id. */
  public String volumeId;
  /** Time of the earliest reference, Unix epoch nanoseconds. */
  public long windowStartUnixNano;
  /** Time of the latest reference, Unix epoch nanoseconds. */
  public long windowEndUnixNano;
  /** Estimated working set size, bytes. */
  public long wssBytes;
  /** Estimated read working set size, bytes. */
  public long wssReadBytes;
  /** Estimated write working set size, bytes. */
  public long wssWriteBytes;
  /** Sampled references processed. */
  public long sampledReferences;
  /** SHARDS sampling rate R of the estimate (fixed size: the current, lowered rate). */
  public double samplingRate;
  /** MRC cache sizes, bytes, increasing. */
  public long[] mrcCacheBytes;
  /** MRC miss ratios at mrcCacheBytes. */
  public double[] mrcMissRatios;
  /** The recommendation, or null when the data cannot support one. */
  public Recommendation recommendation;

  /** For Flink. */
  public VolumeAnalysis() {}
}
