package io.tierwise.jobs.workingset;

import io.tierwise.jobs.recommend.Recommendation;

/**
 * One volume's working set, miss ratio curve and recommendation over the window 'all' (everything
 * received), as computed by {@link WorkingSetFunction} (a Flink POJO). Feeds volume_working_sets,
 * volume_mrcs and recommendations.
 */
public class VolumeAnalysis {
  /** Window name of everything received so far. */
  public static final String WINDOW_ALL = "all";
  /** volume_mrcs.method of fixed-rate SHARDS. */
  public static final String METHOD = "shards-fixed-rate";

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
  /** SHARDS sampling rate R. */
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
