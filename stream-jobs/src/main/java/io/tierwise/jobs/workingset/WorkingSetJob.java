package io.tierwise.jobs.workingset;

import io.tierwise.jobs.recommend.Recommendation;
import io.tierwise.jobs.recommend.RecommendationChangeFilter;
import io.tierwise.jobs.recommend.TierRecommender;
import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The working-set pipeline: sampled reference batches -> {@link WorkingSetFunction} keyed by
 * tenant/volume -> volume_working_sets and volume_mrcs; the processed batches of volumes in a
 * cluster -> {@link ClusterWorkingSetFunction} keyed by tenant/cluster -> cluster_working_sets and
 * cluster_mrcs; recommendations, a volume's and a cluster's shared tier's -> {@link
 * RecommendationChangeFilter} -> recommendations, cluster_recommendations. Source and sinks are given, so tests can run
 * it on their own inputs.
 */
public final class WorkingSetJob {
  private final Source<ReferenceBatchEvent, ?, ?> source;
  private final Sink<VolumeAnalysis> workingSets;
  private final Sink<VolumeAnalysis> missRatioCurves;
  private final Sink<VolumeAnalysis> clusterWorkingSets;
  private final Sink<VolumeAnalysis> clusterMissRatioCurves;
  private final Sink<Recommendation> recommendations;
  private final Sink<Recommendation> clusterRecommendations;
  private final Duration flushDelay;
  private final Duration gapTimeout;
  private final int maxPendingBatches;

  /**
   * @param source parsed telemetry.refs.v1 records
   * @param workingSets sink of volume_working_sets rows
   * @param missRatioCurves sink of volume_mrcs rows
   * @param clusterWorkingSets sink of cluster_working_sets rows
   * @param clusterMissRatioCurves sink of cluster_mrcs rows
   * @param recommendations sink of recommendations rows
   * @param clusterRecommendations sink of cluster_recommendations rows
   * @param flushDelay results are written at most this long after new references
   * @param gapTimeout how long batches wait for a missing sequence number, and a cluster for a
   *     volume that stopped sending; also how far (in reference time) a cluster's references wait
   *     for its other volumes
   * @param maxPendingBatches how many batches may wait for one
   */
  public WorkingSetJob(Source<ReferenceBatchEvent, ?, ?> source, Sink<VolumeAnalysis> workingSets,
      Sink<VolumeAnalysis> missRatioCurves, Sink<VolumeAnalysis> clusterWorkingSets,
      Sink<VolumeAnalysis> clusterMissRatioCurves, Sink<Recommendation> recommendations,
      Sink<Recommendation> clusterRecommendations, Duration flushDelay, Duration gapTimeout, int maxPendingBatches) {
    this.source = source;
    this.workingSets = workingSets;
    this.missRatioCurves = missRatioCurves;
    this.clusterWorkingSets = clusterWorkingSets;
    this.clusterMissRatioCurves = clusterMissRatioCurves;
    this.recommendations = recommendations;
    this.clusterRecommendations = clusterRecommendations;
    this.flushDelay = flushDelay;
    this.gapTimeout = gapTimeout;
    this.maxPendingBatches = maxPendingBatches;
  }

  /** Adds the pipeline to {@code env} (operator uids are stable for checkpoint restore). */
  public void addTo(StreamExecutionEnvironment env) {
    SingleOutputStreamOperator<VolumeAnalysis> analyses = env
        .fromSource(source, WatermarkStrategy.noWatermarks(), "telemetry.refs.v1")
        .uid("refs-source")
        .keyBy(ReferenceBatchEvent::volumeKey, Types.STRING)
        .process(new WorkingSetFunction(flushDelay.toMillis(), gapTimeout.toMillis(), maxPendingBatches,
            MrcEstimators.DEFAULT))
        .uid("working-set")
        .name("working set / MRC");
    analyses.sinkTo(workingSets).uid("sink-volume-working-sets").name("volume_working_sets");
    analyses.sinkTo(missRatioCurves).uid("sink-volume-mrcs").name("volume_mrcs");
    SingleOutputStreamOperator<VolumeAnalysis> clusters = analyses
        .getSideOutput(WorkingSetFunction.CLUSTER_BATCHES)
        .keyBy(ReferenceBatchEvent::clusterKey, Types.STRING)
        .process(new ClusterWorkingSetFunction(flushDelay.toMillis(), gapTimeout.toMillis(), gapTimeout.toMillis(),
            MrcEstimators.DEFAULT),
            Types.POJO(VolumeAnalysis.class))
        .uid("cluster-working-set")
        .name("cluster working set / MRC");
    clusters.sinkTo(clusterWorkingSets).uid("sink-cluster-working-sets").name("cluster_working_sets");
    clusters.sinkTo(clusterMissRatioCurves).uid("sink-cluster-mrcs").name("cluster_mrcs");
    analyses
        .filter(a -> a.recommendation != null).uid("has-recommendation").name("has recommendation")
        .map(a -> a.recommendation, Types.POJO(Recommendation.class)).uid("recommendation").name("recommendation")
        .keyBy(r -> r.tenantId + "/" + r.volumeId, Types.STRING)
        .process(new RecommendationChangeFilter(TierRecommender.HOLD_HIT_RATIO_TOLERANCE), Types.POJO(Recommendation.class))
        .uid("recommendation-changes").name("material changes")
        .sinkTo(recommendations).uid("sink-recommendations").name("recommendations");
    clusters
        .filter(a -> a.recommendation != null).uid("cluster-has-recommendation").name("cluster has recommendation")
        .map(a -> a.recommendation, Types.POJO(Recommendation.class)).uid("cluster-recommendation")
        .name("cluster recommendation")
        .keyBy(r -> r.tenantId + "/" + r.clusterId, Types.STRING)
        .process(new RecommendationChangeFilter(TierRecommender.HOLD_HIT_RATIO_TOLERANCE), Types.POJO(Recommendation.class))
        .uid("cluster-recommendation-changes").name("cluster material changes")
        .sinkTo(clusterRecommendations).uid("sink-cluster-recommendations").name("cluster_recommendations");
  }
}
