package io.tierwise.jobs.workingset.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.tierwise.jobs.recommend.Recommendation;
import io.tierwise.jobs.recommend.TierRecommender;
import io.tierwise.jobs.testing.AgentReferenceSource;
import io.tierwise.jobs.testing.Repo;
import io.tierwise.jobs.workingset.estimate.MissRatioCurve;
import io.tierwise.jobs.workingset.estimate.MrcEstimate;
import io.tierwise.jobs.workingset.estimate.MrcEstimators;
import io.tierwise.jobs.workingset.estimate.WindowedEstimators;
import io.tierwise.jobs.workingset.estimate.eviction.EvictionPolicy;
import io.tierwise.proto.v1.ReferenceBatch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A shared tier recommended from the merged stream of its volumes (issue 15): the Tencent CBS
 * trace's 2,038 volumes as one host whose tier device they share. Each volume's sampled references
 * (the agent's own sampler, {@code sample-refs}) go through a {@link ClusterStream}, as the job's
 * {@link SharedTierWorkingSetFunction} merges them, with the agent's own simulations of the host's
 * tier added up for the policies' curves, and the {@link TierRecommender} recommends the
 * shared tier from it; the engine's exact hit ratio of the merged stream at that size and eviction
 * policy ({@code tierwise-agent mrc --exact --shared-tier}) must be within {@value #TOLERANCE} of
 * the prediction, for every reference (what a write-back tier serves; the recommendation is
 * compared on all references whatever its write policy, as the engine's curve is), over
 * {@value #KEYS} random hash keys. The same with the tier's windows the agent ran (each volume's
 * batch its share, {@link ClusterStream#addShares}) instead of the merge: the engine within
 * {@value #TOLERANCE} of that prediction too, and the two LRU curves of the recommendation window
 * within {@value #PATHS_TOLERANCE} of each other at every size (the agent merges in true time order
 * and lowers T at once, the service by a watermark and per batch).
 */
class SharedTierTest {
  private static final double TOLERANCE = 0.02;
  private static final double PATHS_TOLERANCE = 0.005;
  private static final int KEYS = 3;
  private static final String TENANT = "00000000-0000-0000-0000-0000000005e7";

  @Test
  void theTencentVolumesAsOneHostGetOneTierWhosePredictionTheEngineMeets() throws Exception {
    Path binary = AgentReferenceSource.defaultBinary();
    if (!Files.isExecutable(binary)) {
      assertThat(Repo.isCi()).as(binary + " is needed under CI (npm run -w @tierwise/edge-agent build)").isFalse();
      Assumptions.abort("the edge agent is not built");
    }
    AgentReferenceSource agent = new AgentReferenceSource(binary);
    Path trace = Repo.traces().resolve("tencent_cbs_sample50k.csv.bz2");
    SecureRandom random = new SecureRandom();
    StringBuilder report = new StringBuilder();
    for (int k = 0; k < KEYS; k++) {
      byte[] key = new byte[16];
      random.nextBytes(key);
      ClusterStream merged = new ClusterStream(MrcEstimators.DEFAULT);
      ClusterStream shared = new ClusterStream(MrcEstimators.DEFAULT);
      ReferenceBatchParser parser = new ReferenceBatchParser();
      int simulated = 0;
      for (ReferenceBatch b : agent.sample(trace, HexFormat.of().formatHex(key), 1.0)) {
        ReferenceBatchEvent e = parser.parse(TENANT, b);
        assertThat(e.hostTierWorkingSet).as("every batch carries its share of the host's tier's windows").isNotNull();
        merged.offer(e, 0);
        shared.addShares(e, 0);
        if (e.hostTier != null) {
          merged.addAgentSimulations(e.hostTier);
          shared.addAgentSimulations(e.hostTier);
          simulated++;
        }
      }
      assertThat(simulated).as("batches with the agent's simulations of the host's tier").isPositive();
      merged.release(Long.MAX_VALUE);
      MrcEstimate mergedCurve = null;
      for (ClusterStream host : List.of(merged, shared)) {
        String path = host == merged ? "merged here" : "the agent's windows";
        WindowedEstimators w = host.estimators();
        WindowedEstimators.Result window = w.results().stream()
            .filter(r -> r.window().equals(VolumeAnalysis.RECOMMENDATION_WINDOW)).findFirst().orElseThrow();
        Recommendation r = TierRecommender.recommend(
            TierRecommender.Input.of(TENANT, null, window.window(), window.estimator(), host.io(), w)).orElseThrow();
        EvictionPolicy eviction = EvictionPolicy.parseService(r.eviction);
        MrcEstimate e = window.estimator();
        double lruMiss = e.missRatioAt(r.tierBytes);
        double coldMiss = e.missRatioAt(Long.MAX_VALUE / 2);
        double predicted = 1 - w.evictionMissRatio(eviction, r.tierBytes, lruMiss, coldMiss, false);
        double exact = 1 - agent.exactMrc(trace, new long[] {r.tierBytes}, eviction.wireName(), null, true).missRatio(0);
        report.append(String.format("key %d, %s: %d volumes, %s %s %s %s, predicted %.4f (%s), engine %.4f, error %+.4f%n",
            k, path, host.volumeCount(), r.tierBytes / MissRatioCurve.MIB + " MiB", r.media, r.policy, r.eviction,
            predicted, r.policy.equals("write-back") ? "the recommendation's" : "all references", exact, exact - predicted));
        assertThat(host.volumeCount()).isEqualTo(2038);
        if (r.policy.equals("write-back")) {
          assertThat(predicted).as("a write-back tier's prediction is of all references").isEqualTo(r.predictedHitRatio);
        }
        assertThat(Math.abs(exact - predicted)).as(report.toString()).isLessThanOrEqualTo(TOLERANCE);
        if (mergedCurve == null) {
          mergedCurve = e;
          continue;
        }
        double largest = 0;
        for (long bytes : MissRatioCurve.cacheSizeGrid(64 * MissRatioCurve.GIB)) {
          largest = Math.max(largest, Math.abs(e.missRatioAt(bytes) - mergedCurve.missRatioAt(bytes)));
        }
        report.append(String.format("key %d: the two paths' LRU curves differ by at most %.4f%n", k, largest));
        assertThat(largest).as(report.toString()).isLessThanOrEqualTo(PATHS_TOLERANCE);
      }
    }
    System.out.print("The Tencent trace as one host's shared tier:\n" + report);
  }
}
