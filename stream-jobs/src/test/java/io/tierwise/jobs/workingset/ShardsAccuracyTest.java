package io.tierwise.jobs.workingset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.assertj.core.api.Assertions.within;

import io.tierwise.jobs.testing.AgentReferenceSource;
import io.tierwise.jobs.testing.LocalReferenceSource;
import io.tierwise.jobs.testing.ReferenceSource;
import io.tierwise.jobs.testing.Repo;
import io.tierwise.jobs.testing.VscsiTrace;
import io.tierwise.proto.v1.ReferenceBatch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * SHARDS at R = 0.01 against the exact LRU MRC of the real CloudPhysics trace
 * (/work/shared/traces/cloudphysics_w_sample.vscsi: 113,872 I/Os, 1,141,869 block references,
 * 269,210 distinct 4 KiB blocks = 1,051.6 MiB), for random hash keys drawn per run. The sampled
 * references come from the edge agent's own sampler ({@code tierwise-agent sample-refs}) and go
 * through the same validation as in the job ({@link ReferenceBatchParser}).
 *
 * <p>Why 20 keys and the median: on this trace the MAE of one key at R = 0.01 is heavy-tailed
 * (measured over 500 keys: median 0.016, 90th percentile 0.036, max 0.19; 13 % of keys above
 * 0.03), because a few very hot blocks are in the 1 % sample or not (SHARDS section 3.2). "Each of
 * 5 keys <= 0.03" therefore holds in only about half of the runs whatever the implementation;
 * the median of 20 keys <= 0.03 fails with probability about 1e-4 and still catches any
 * systematic error. Every key's MAE is printed.
 */
class ShardsAccuracyTest {
  private static final double RATE = 0.01;
  private static final int KEYS = 20;
  private static final double MAX_MEDIAN_MAE = 0.03;
  /** Far above any key seen in 500 (0.19); a scaling or ordering bug gives 0.3 and more. */
  private static final double MAX_MAE = 0.25;
  private static final long EXACT_DISTINCT_BLOCKS = 269_210;

  @Test
  void shardsMrcAndWorkingSetMatchTheExactOnesOnTheCloudPhysicsTrace() throws Exception {
    Path trace = Repo.traces().resolve("cloudphysics_w_sample.vscsi");
    assertThat(trace).as("the shared trace (TIERWISE_TRACES_DIR)").isRegularFile();
    ReferenceSource source = referenceSource();
    long[] sizes = Arrays.stream(MissRatioCurve.cacheSizeGrid(0))
        .filter(b -> b >= 16 * MissRatioCurve.MIB && b <= MissRatioCurve.GIB).toArray();
    assertThat(sizes).hasSizeGreaterThanOrEqualTo(8);
    MissRatioCurve exact = source.exactMrc(trace, sizes);

    SecureRandom random = new SecureRandom();
    double[] mae = new double[KEYS];
    long[] wssBlocks = new long[KEYS];
    StringBuilder report = new StringBuilder();
    for (int k = 0; k < KEYS; k++) {
      byte[] key = new byte[16];
      random.nextBytes(key);
      ShardsFixedRate shards = replay(source.sample(trace, HexFormat.of().formatHex(key), RATE));
      assertThat(shards.rate()).isCloseTo(RATE, within(RATE / 100));
      mae[k] = shards.missRatioCurve(sizes).meanAbsoluteError(exact);
      wssBlocks[k] = shards.workingSetBytes() / ShardsFixedRate.BLOCK_BYTES;
      report.append(String.format("  key %2d: MAE %.4f, WSS %,d blocks (%+.2f %%), %,d sampled refs%n", k,
          mae[k], wssBlocks[k], 100.0 * (wssBlocks[k] - EXACT_DISTINCT_BLOCKS) / EXACT_DISTINCT_BLOCKS,
          shards.references()));
    }
    double[] sorted = mae.clone();
    Arrays.sort(sorted);
    double median = (sorted[KEYS / 2 - 1] + sorted[KEYS / 2]) / 2;
    long withinBound = Arrays.stream(mae).filter(m -> m <= MAX_MEDIAN_MAE).count();
    long firstFiveWithin = Arrays.stream(mae, 0, 5).filter(m -> m <= MAX_MEDIAN_MAE).count();
    double meanWss = Arrays.stream(wssBlocks).average().orElseThrow();
    System.out.printf("SHARDS fixed-rate accuracy, R = %.2f, %d sizes 16 MiB..1 GiB, references from %s%n"
            + "  exact %s%n%s  MAE min %.4f median %.4f mean %.4f max %.4f; keys with MAE <= %.2f: %d of %d"
            + " (first 5 keys: %d of 5)%n  mean WSS %,.0f blocks vs exact %,d (%+.2f %%)%n",
        RATE, sizes.length, source.name(), exact, report, sorted[0], median,
        Arrays.stream(mae).average().orElseThrow(), sorted[KEYS - 1], MAX_MEDIAN_MAE, withinBound, KEYS,
        firstFiveWithin, meanWss, EXACT_DISTINCT_BLOCKS, 100.0 * (meanWss - EXACT_DISTINCT_BLOCKS) / EXACT_DISTINCT_BLOCKS);

    assertThat(median).as("median MAE of %d keys", KEYS).isLessThanOrEqualTo(MAX_MEDIAN_MAE);
    assertThat(sorted[KEYS - 1]).as("largest MAE").isLessThanOrEqualTo(MAX_MAE);
    // One key's distinct-block count is Binomial(269,210, 0.01): standard error 1.9 %. The mean
    // of 20 keys (0.4 %) must be within 5 %, every key within 10 % (5 standard errors).
    assertThat(meanWss).isBetween(0.95 * EXACT_DISTINCT_BLOCKS, 1.05 * EXACT_DISTINCT_BLOCKS);
    assertThat(Arrays.stream(wssBlocks).boxed()).as("WSS per key, blocks")
        .allSatisfy(w -> assertThat(w).isBetween(Math.round(0.90 * EXACT_DISTINCT_BLOCKS),
            Math.round(1.10 * EXACT_DISTINCT_BLOCKS)));
  }

  @Test
  void traceExpandsToTheDocumentedFootprint() throws Exception {
    Path trace = Repo.traces().resolve("cloudphysics_w_sample.vscsi");
    Set<Long> blocks = new HashSet<>();
    VscsiTrace.blockReferences(trace).forEach(r -> blocks.add(r.block()));
    assertThat(blocks).hasSize((int) EXACT_DISTINCT_BLOCKS);
  }

  @Test
  void agentExactMrcAgreesWithTheReferenceLruSimulation() throws Exception {
    Path agent = AgentReferenceSource.defaultBinary();
    if (!Files.isExecutable(agent)) {
      // Covered by the test above, which fails under CI when the agent is missing.
      return;
    }
    Path trace = Repo.traces().resolve("cloudphysics_w_sample.vscsi");
    long[] sizes = {16 * MissRatioCurve.MIB, 256 * MissRatioCurve.MIB, MissRatioCurve.GIB};
    MissRatioCurve fromAgent = new AgentReferenceSource(agent).exactMrc(trace, sizes);
    MissRatioCurve fromJava = new LocalReferenceSource().exactMrc(trace, sizes);
    assertThat(fromAgent.missRatios()).containsExactly(fromJava.missRatios(), within(1e-6));
  }

  /** The batches in sequence order, each validated as the job does, into one estimator. */
  private static ShardsFixedRate replay(List<ReferenceBatch> batches) throws Exception {
    assertThat(batches).isNotEmpty();
    ReferenceBatchParser parser = new ReferenceBatchParser();
    ShardsFixedRate shards = null;
    long expectedSequence = batches.get(0).getSequence();
    for (ReferenceBatch b : batches) {
      assertThat(b.getSequence()).as("batch sequence").isEqualTo(expectedSequence++);
      ReferenceBatchEvent e = parser.parse("00000000-0000-0000-0000-000000000000", b);
      if (shards == null) {
        shards = new ShardsFixedRate(e.samplingModulus, e.samplingThreshold);
      }
      for (int i = 0; i < e.size(); i++) {
        shards.reference(e.blockHashes[i], e.writes[i]);
      }
    }
    return shards;
  }

  private static ReferenceSource referenceSource() {
    Path agent = AgentReferenceSource.defaultBinary();
    if (Files.isExecutable(agent)) {
      return new AgentReferenceSource(agent);
    }
    if (Repo.isCi()) {
      fail(agent + " does not exist: the accuracy test needs the edge agent's sampler and exact MRC."
          + " Build it first (npm run -w @tierwise/edge-agent build).");
    }
    System.out.println("WARNING: " + agent + " not found; using the test-scope stand-in (CI=true fails instead)");
    return new LocalReferenceSource();
  }
}
