package io.tierwise.jobs.workingset.pipeline;

import io.tierwise.jobs.workingset.estimate.MissRatioCurve;
import io.tierwise.jobs.workingset.estimate.MrcEstimate;
import io.tierwise.jobs.workingset.estimate.WindowedEstimators;
import io.tierwise.jobs.workingset.estimate.eviction.EvictionPolicy;
import java.util.Arrays;

/**
 * One volume's working set and miss ratio curves over one window ({@link WindowedEstimators}), as
 * computed by {@link WorkingSetFunction} (a Flink POJO); or, with {@link #clusterId} or {@link
 * #hostId} set, a shared tier's ({@link SharedTierWorkingSetFunction}). Feeds volume_working_sets
 * and volume_mrcs, or the cluster_ and host_ tables. The recommendation is not in it: the
 * operators emit the {@link #RECOMMENDATION_WINDOW} window's estimate on a side output ({@link
 * WorkingSetFunction#RECOMMENDATION_ESTIMATES}) for the recommender's own operator.
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
  /** For Flink. */
  public VolumeAnalysis() {}

  /**
   * The working sets and MRC (on {@link MissRatioCurve#cacheSizeGrid} of the working set) of one
   * window's estimate, with each eviction policy's curve when {@code w} simulates them.
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
    MrcEstimate s = r.estimator();
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
