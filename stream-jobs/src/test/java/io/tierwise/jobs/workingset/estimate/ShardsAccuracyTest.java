package io.tierwise.jobs.workingset.estimate;

import static io.tierwise.jobs.testing.Errors.max;
import static io.tierwise.jobs.testing.Errors.mean;
import static io.tierwise.jobs.testing.Errors.min;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tierwise.jobs.testing.AgentReferenceSource;
import io.tierwise.jobs.testing.LocalReferenceSource;
import io.tierwise.jobs.testing.ReferenceSource;
import io.tierwise.jobs.testing.Repo;
import io.tierwise.jobs.testing.VscsiTrace;
import io.tierwise.jobs.workingset.pipeline.ReferenceBatchEvent;
import io.tierwise.jobs.workingset.pipeline.ReferenceBatchParser;
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
 * SHARDS against the exact LRU MRC of the real CloudPhysics trace
 * (/work/shared/traces/cloudphysics_w_sample.vscsi: 113,872 I/Os, 1,141,869 block references,
 * 269,210 distinct 4 KiB blocks = 1,051.6 MiB; exact MRC from {@code tierwise-agent mrc --exact}),
 * for {@value #KEYS} random hash keys drawn per run (never a chosen key). The sampled references
 * and stream totals come from the edge agent's own sampler ({@code tierwise-agent sample-refs} with
 * its defaults: initial rate 1, sample bounded at 10,923 blocks) and go through the job's
 * validation ({@link ReferenceBatchParser}). From each key's one stream:
 *
 * <ul>
 *   <li>fixed-size SHARDS, {@code sMax} = 8,192 ({@link ShardsFixedSize}, following the agent's
 *       lowered thresholds as the job does): mean MAE of the keys at most {@value #MAX_MEAN_MAE_FIXED_SIZE};
 *   <li>fixed-rate SHARDS at R = 0.01 ({@link ShardsFixedRate}, the references with
 *       {@code H mod P < 0.01 P}: the agent's threshold never falls below that on this trace, so
 *       they are exactly a fixed-rate 0.01 sample): mean MAE at most {@value #MAX_MEAN_MAE_FIXED_RATE}.
 * </ul>
 *
 * <p>Both estimators take the agent's stream totals, the LRU anchor included (the hits of its exact
 * 4 MiB LRU over every reference, {@link StreamTotals#addLruAnchor}), as the job does. The agent's
 * {@code sample-refs} always runs the anchor; {@code serve} only with {@code --lru-anchor}
 * (docs/analytics.md, "The LRU anchor"): without it, the fixed-size mean is 0.0055 to 0.0062.
 *
 * <p>MAE: mean absolute error of the miss ratio over a grid of sizes (SHARDS paper, section 5.1),
 * on two grids: ours, the 13 sizes 16 MiB..1 GiB, and libCacheSim's mrcProfiler default, 100 sizes
 * from 1 % to 100 % of the working set ({@link #libCacheSimGrid}). The bounds are on the mean of
 * {@value #KEYS} keys; min and max are printed. With the anchor (session 5), fixed size, 20-key
 * means on our grid 0.0021 to 0.0025 in four runs (before it: 0.0036 to 0.0075, mean 0.0055 over
 * twenty runs and 0.0062 over 200 keys), on libCacheSim's grid 0.0037 to 0.0045, where half the
 * sizes lie past the curve's cliff at 512 to 520 MiB and the binomial noise of a sampled distance
 * (1.6 % at R = 0.03) moves references across a grid size, which no anchor at 4 MiB corrects:
 * hence its own bound, {@value #MAX_MEAN_MAE_FIXED_SIZE_PEER_GRID}: six runs gave 0.0037 to 0.0051
 * (mean 0.0045, standard deviation about 0.0005), so it is 4 sigma above their mean and a correct
 * estimator fails it about one run in 30,000; the goal, 0.004 on our grid, is 5 sigma above its
 * runs (0.0021 to 0.0030). Fixed rate with R', one run:
 * 0.0045 on ours, 0.0069 on libCacheSim's (before: 0.0067 to 0.0091 and 0.0058 to 0.0075); 0.017
 * fails for classic SHARDS (mean 0.018 and above).
 * libCacheSim's own SHARDS profiler on the same 4 KiB block references does worse (fixed size
 * 0.0052 to 0.0099, fixed rate 0.015 to 0.022, seven and four runs of 20 salts); docs/analytics.md
 * lists what was checked and how the peer was run. Working set: the sketch's distinct-block
 * estimate has a standard error of 0.4 % (HyperLogLog, 2^16 registers).
 */
class ShardsAccuracyTest {
  private static final double RATE = 0.01;
  private static final int KEYS = 20;
  private static final double MAX_MEAN_MAE_FIXED_SIZE = 0.004;
  /** On libCacheSim's grid, half of whose sizes lie past the curve's cliff (see the class doc). */
  private static final double MAX_MEAN_MAE_FIXED_SIZE_PEER_GRID = 0.0065;
  private static final double MAX_MEAN_MAE_FIXED_RATE = 0.017;
  private static final long EXACT_DISTINCT_BLOCKS = 269_210;

  @Test
  void shardsMrcAndWorkingSetMatchTheExactOnesOnTheCloudPhysicsTrace() throws Exception {
    Path trace = Repo.traces().resolve("cloudphysics_w_sample.vscsi");
    assertThat(trace).as("the shared trace (TIERWISE_TRACES_DIR)").isRegularFile();
    ReferenceSource source = ReferenceSource.agentOrStandIn();
    long[] sizes = Arrays.stream(MissRatioCurve.cacheSizeGrid(0))
        .filter(b -> b >= 16 * MissRatioCurve.MIB && b <= MissRatioCurve.GIB).toArray();
    assertThat(sizes).hasSizeGreaterThanOrEqualTo(8);
    MissRatioCurve exact = source.exactMrc(trace, sizes);
    // libCacheSim's grid (mrcProfiler --size=0.01,1,100): 1 % to 100 % of the working set. The
    // test-scope stand-in's LRU simulation holds one cache per size: too much heap for 100.
    long[] peerSizes = libCacheSimGrid(EXACT_DISTINCT_BLOCKS);
    MissRatioCurve peerExact = source instanceof AgentReferenceSource ? source.exactMrc(trace, peerSizes) : null;

    SecureRandom random = new SecureRandom();
    double[] fixedSizeMae = new double[KEYS];
    double[] fixedRateMae = new double[KEYS];
    double[] fixedSizePeerGridMae = new double[KEYS];
    double[] fixedRatePeerGridMae = new double[KEYS];
    long[] wssBlocks = new long[KEYS];
    long[] stateBytes = new long[2];
    StringBuilder report = new StringBuilder();
    for (int k = 0; k < KEYS; k++) {
      byte[] key = new byte[16];
      random.nextBytes(key);
      List<ReferenceBatch> batches = source.sample(trace, HexFormat.of().formatHex(key), 1.0);
      ShardsFixedSize fixedSize = null;
      ShardsFixedRate fixedRate = null;
      long shipped = 0;
      ReferenceBatchParser parser = new ReferenceBatchParser();
      long expectedSequence = 0;
      for (ReferenceBatch b : batches) {
        assertThat(b.getSequence()).as("batch sequence").isEqualTo(expectedSequence++);
        ReferenceBatchEvent e = parser.parse("00000000-0000-0000-0000-000000000000", b);
        if (fixedSize == null) {
          fixedSize = new ShardsFixedSize(e.samplingModulus, e.samplingThreshold, ShardsFixedSize.DEFAULT_MAX_SAMPLES);
          fixedRate = new ShardsFixedRate(e.samplingModulus, Math.round(RATE * e.samplingModulus));
        }
        assertThat(Long.compareUnsigned(e.samplingThreshold, fixedRate.threshold()))
            .as("the agent's threshold stays above R = 0.01").isPositive();
        fixedSize.lowerThreshold(e.samplingThreshold);
        for (MrcEstimator s : new MrcEstimator[] {fixedSize, fixedRate}) {
          s.addStreamTotals(e.consideredReferences, e.distinctBlocksHllPrecision, e.distinctBlocksHllUpdates);
          s.addLruAnchor(e.lruAnchorHits, e.lruAnchorBlocks);
        }
        for (int i = 0; i < e.size(); i++) {
          fixedSize.reference(e.blockHashes[i], e.writes[i]);
          if (fixedRate.isSampled(e.blockHashes[i])) {
            fixedRate.reference(e.blockHashes[i], e.writes[i]);
          }
        }
        shipped += e.size();
      }
      assertThat(fixedRate.hasStreamTotals()).as("every batch carries the stream totals").isTrue();
      assertThat(fixedRate.consideredReferences()).as("N: every block reference of the trace").isEqualTo(1_141_869);
      // Full to s_max, less the few blocks a late threshold drop (agent side) evicted.
      assertThat(fixedSize.sampledBlocks())
          .isBetween(ShardsFixedSize.DEFAULT_MAX_SAMPLES * 99 / 100, ShardsFixedSize.DEFAULT_MAX_SAMPLES);
      fixedSizeMae[k] = fixedSize.missRatioCurve(sizes).meanAbsoluteError(exact);
      fixedRateMae[k] = fixedRate.missRatioCurve(sizes).meanAbsoluteError(exact);
      if (peerExact != null) {
        fixedSizePeerGridMae[k] = fixedSize.missRatioCurve(peerSizes).meanAbsoluteError(peerExact);
        fixedRatePeerGridMae[k] = fixedRate.missRatioCurve(peerSizes).meanAbsoluteError(peerExact);
      }
      wssBlocks[k] = fixedSize.workingSetBytes() / ShardsEstimator.BLOCK_BYTES;
      stateBytes[0] = Math.max(stateBytes[0], fixedSize.stateBytes());
      stateBytes[1] = Math.max(stateBytes[1], fixedRate.stateBytes());
      report.append(String.format("  key %2d: MAE fixed size %.4f (R %.5f), fixed rate %.4f (R' %.5f);"
              + " WSS %,d blocks (%+.2f %%); agent shipped %,d references in %d batches%n", k, fixedSizeMae[k],
          fixedSize.rate(), fixedRateMae[k], fixedRate.effectiveRate(), wssBlocks[k],
          100.0 * (wssBlocks[k] - EXACT_DISTINCT_BLOCKS) / EXACT_DISTINCT_BLOCKS, shipped, batches.size()));
    }
    double meanFixedSize = mean(fixedSizeMae);
    double meanFixedRate = mean(fixedRateMae);
    double meanWss = Arrays.stream(wssBlocks).average().orElseThrow();
    String peerGrid = peerExact == null ? String.format("  libCacheSim's grid: skipped (needs the agent's exact MRC)%n")
        : String.format("  on libCacheSim's grid (100 sizes, 1 %%..100 %% of the working set):%n"
            + "  fixed size (s_max %d): MAE min %.4f mean %.4f max %.4f%n"
            + "  fixed rate (R %.2f):    MAE min %.4f mean %.4f max %.4f%n", ShardsFixedSize.DEFAULT_MAX_SAMPLES,
            min(fixedSizePeerGridMae), mean(fixedSizePeerGridMae), max(fixedSizePeerGridMae), RATE,
            min(fixedRatePeerGridMae), mean(fixedRatePeerGridMae), max(fixedRatePeerGridMae));
    System.out.printf("SHARDS accuracy on the CloudPhysics trace, %d random keys, %d sizes 16 MiB..1 GiB,"
            + " references from %s%n  exact %s%n%s"
            + "  fixed size (s_max %d): MAE min %.4f mean %.4f max %.4f%n"
            + "  fixed rate (R %.2f):    MAE min %.4f mean %.4f max %.4f%n"
            + "  mean WSS %,.0f blocks vs exact %,d (%+.2f %%)%n"
            + "  serialised state of one volume's estimator, largest of the keys: fixed size %,d bytes, fixed rate %,d bytes%n",
        KEYS, sizes.length, source.name(), exact, report, ShardsFixedSize.DEFAULT_MAX_SAMPLES,
        min(fixedSizeMae), meanFixedSize, max(fixedSizeMae),
        RATE, min(fixedRateMae), meanFixedRate,
        max(fixedRateMae), meanWss, EXACT_DISTINCT_BLOCKS,
        100.0 * (meanWss - EXACT_DISTINCT_BLOCKS) / EXACT_DISTINCT_BLOCKS, stateBytes[0], stateBytes[1]);

    System.out.print(peerGrid);

    assertThat(meanFixedSize).as("fixed-size mean MAE of %d keys", KEYS).isLessThanOrEqualTo(MAX_MEAN_MAE_FIXED_SIZE);
    assertThat(meanFixedRate).as("fixed-rate mean MAE of %d keys", KEYS).isLessThanOrEqualTo(MAX_MEAN_MAE_FIXED_RATE);
    if (peerExact != null) {
      assertThat(mean(fixedSizePeerGridMae)).as("fixed-size mean MAE of %d keys, libCacheSim's grid", KEYS)
          .isLessThanOrEqualTo(MAX_MEAN_MAE_FIXED_SIZE_PEER_GRID);
      assertThat(mean(fixedRatePeerGridMae)).as("fixed-rate mean MAE of %d keys, libCacheSim's grid", KEYS)
          .isLessThanOrEqualTo(MAX_MEAN_MAE_FIXED_RATE);
    }
    // HyperLogLog standard error 0.4 %: the mean of 20 keys within 0.5 %, every key within 2.5 %.
    assertThat(meanWss).isBetween(0.995 * EXACT_DISTINCT_BLOCKS, 1.005 * EXACT_DISTINCT_BLOCKS);
    assertThat(Arrays.stream(wssBlocks).boxed()).as("WSS per key, blocks")
        .allSatisfy(w -> assertThat(w).isBetween(Math.round(0.975 * EXACT_DISTINCT_BLOCKS),
            Math.round(1.025 * EXACT_DISTINCT_BLOCKS)));
  }

  /**
   * The cache sizes of libCacheSim's mrcProfiler with {@code --size=0.01,1,100} (its default):
   * {@code r x WSS} bytes for r = 0.01, 0.02, ..., 1.00, the working set in bytes; here rounded
   * down to whole 4 KiB blocks, which changes no miss ratio (every distance is whole blocks).
   */
  static long[] libCacheSimGrid(long workingSetBlocks) {
    long[] sizes = new long[100];
    for (int i = 0; i < sizes.length; i++) {
      double ratio = i < sizes.length - 1 ? 0.01 + 0.01 * i : 1.0;
      sizes[i] = (long) (workingSetBlocks * ratio) * ShardsEstimator.BLOCK_BYTES;
    }
    return sizes;
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
}
