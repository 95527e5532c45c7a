package io.tierwise.jobs.pipeline;

import io.tierwise.jobs.workingset.estimate.eviction.EvictionPolicy;
import java.util.Arrays;

import io.tierwise.jobs.recommend.Recommendation;
import io.tierwise.jobs.workingset.WindowedEstimators;
import io.tierwise.jobs.workingset.MrcEstimator;
import io.tierwise.jobs.workingset.MissRatioCurve;

/**
 * One volume's working set, miss ratio curve and (for {@link #RECOMMENDATION_WINDOW})
 * recommendation over one window ({@link WindowedEstimators}), as computed by {@link
 * WorkingSetFunction} (a Flink POJO); or, with {@link #clusterId} set, a cluster's ({@link
 * SharedTierWorkingSetFunction}, no recommendation). Feeds volume_working_sets, volume_mrcs and
 * recommendations, or cluster_working_sets and cluster_mrcs.
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
  /** Volume id (null for a cluster's or a host's). */
  public String volumeId;
  /** Cluster id of a cluster's analysis, null otherwise. */
  public String clusterId;
  /** Host id of a host's analysis (its volumes' shared tier), null otherwise. */
  public String hostId;
  /** Volumes merged into a cluster's or a host's analysis (0 for a volume's). */
  public int volumes;
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
  /**
   * Eviction policies of {@link #evictionMissRatios}' rows, as the services spell them
   * ({@code EvictionPolicy#serviceName}); empty when the estimators simulate none.
   */
  public String[] evictions = new String[0];
  /** Each policy's miss ratios at mrcCacheBytes (all references), rows in {@link #evictions}' order. */
  public double[][] evictionMissRatios = new double[0][];
  /** The recommendation, or null when the data cannot support one. */
  public Recommendation recommendation;

  /** For Flink. */
  public VolumeAnalysis() {}

  /**
   * The working sets and MRC (on {@link MissRatioCurve#cacheSizeGrid} of the working set) of one
   * window's estimate, with each eviction policy's curve when {@code w} simulates them; no
   * recommendation.
   *
   * @param stateBytes bytes of the whole SHARDS state the result comes from
   */
  static VolumeAnalysis of(String tenantId, String volumeId, WindowedEstimators w, WindowedEstimators.Result r,
      long stateBytes) {
    VolumeAnalysis a = of(tenantId, volumeId, r, stateBytes);
    if (w.simulatesPolicies()) {
      a.evictions = Arrays.stream(EvictionPolicy.values()).map(EvictionPolicy::serviceName).toArray(String[]::new);
      a.evictionMissRatios = w.evictionMissRatios(new MissRatioCurve(a.mrcCacheBytes, a.mrcMissRatios), false);
    }
    return a;
  }

  private static VolumeAnalysis of(String tenantId, String volumeId, WindowedEstimators.Result r, long stateBytes) {
    MrcEstimator s = r.estimator();
    VolumeAnalysis a = new VolumeAnalysis();
    a.tenantId = tenantId;
    a.volumeId = volumeId;
    a.windowName = r.window();
    a.method = s.method();
    a.stateBytes = stateBytes;
    a.windowStartUnixNano = r.startUnixNano();
    a.windowEndUnixNano = r.endUnixNano();
    a.wssBytes = s.workingSetBytes();
    a.wssReadBytes = s.readWorkingSetBytes();
    a.wssWriteBytes = s.writeWorkingSetBytes();
    a.sampledReferences = s.references();
    a.samplingRate = s.rate();
    MissRatioCurve mrc = s.missRatioCurve(MissRatioCurve.cacheSizeGrid(a.wssBytes));
    a.mrcCacheBytes = mrc.cacheBytes();
    a.mrcMissRatios = mrc.missRatios();
    return a;
  }
}
