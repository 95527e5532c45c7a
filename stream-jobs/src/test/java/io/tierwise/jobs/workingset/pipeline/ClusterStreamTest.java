package io.tierwise.jobs.workingset.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tierwise.jobs.testing.ExactLru;
import io.tierwise.jobs.testing.ReferenceSource;
import io.tierwise.jobs.testing.Repo;
import io.tierwise.jobs.testing.VscsiTrace;
import io.tierwise.jobs.workingset.estimate.MissRatioCurve;
import io.tierwise.jobs.workingset.estimate.MrcEstimator;
import io.tierwise.jobs.workingset.estimate.MrcEstimators;
import io.tierwise.jobs.workingset.estimate.ShardsEstimator;
import io.tierwise.jobs.workingset.estimate.ShardsFixedSize;
import io.tierwise.jobs.workingset.estimate.WindowShares;
import io.tierwise.proto.v1.ReferenceBatch;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * A cluster's working set and MRC from two volumes of one cluster, each sampled by its own agent
 * run ({@code tierwise-agent sample-refs}, the agent's defaults) of the CloudPhysics trace, the
 * second host's workload starting {@value #SHIFT_SECONDS} s after the first's (half the trace's 2
 * hours overlap): {@link ClusterStream} must give the MRC of the two streams merged in time order
 * (exact LRU over the merged block references, a block of each volume a block of its own), within
 * the sampling error, and one clearly different from either volume's. {@value #KEYS} random keys
 * (never a chosen one). Sampling error: the merged footprint is 538,420 blocks, so s_max 8,192
 * samples it at R = 0.015, half the single volume's rate; ShardsAccuracyTest's keys at R = 0.03
 * have MAE up to 0.022, so the mean of {@value #KEYS} keys is bounded by {@value #MAX_MEAN_MAE}.
 */
public class ClusterStreamTest {
  private static final int KEYS = 5;
  private static final long SHIFT_SECONDS = 3600;
  private static final double MAX_MEAN_MAE = 0.02;
  private static final long MIB = MissRatioCurve.MIB;
  private static final long[] SIZES = {64 * MIB, 256 * MIB, 512 * MIB, 1024 * MIB, 1536 * MIB, 2048 * MIB};

  @Test
  void theClusterMrcIsTheMrcOfTheVolumesStreamsMergedInTimeOrder() throws Exception {
    Path trace = Repo.traces().resolve("cloudphysics_w_sample.vscsi");
    ReferenceSource agent = ReferenceSource.agentOrStandIn();
    double[] exact = exactMergedMissRatios(trace);
    double[] clusterMae = new double[KEYS];
    double[] distanceToVolume = new double[KEYS];
    double[] largestGapToVolume = new double[KEYS];
    SecureRandom random = new SecureRandom();
    StringBuilder report = new StringBuilder();
    for (int k = 0; k < KEYS; k++) {
      byte[] key = new byte[16];
      random.nextBytes(key);
      String keyHex = HexFormat.of().formatHex(key);
      List<ReferenceBatchEvent> first = events(agent.sample(trace, keyHex, 1.0), "0a0a0a0a0a0a0a0a", 0);
      List<ReferenceBatchEvent> second = events(agent.sample(trace, keyHex, 1.0), "0b0b0b0b0b0b0b0b",
          SHIFT_SECONDS * 1_000_000_000L);
      ClusterStream cluster = new ClusterStream(MrcEstimators.DEFAULT);
      // Batches come as the two agents send them: interleaved, each volume's in its order.
      for (int i = 0; i < Math.max(first.size(), second.size()); i++) {
        for (List<ReferenceBatchEvent> volume : List.of(first, second)) {
          if (i < volume.size()) {
            cluster.offer(volume.get(i), 0);
            cluster.release(cluster.watermark(0, 1));
          }
        }
      }
      cluster.release(Long.MAX_VALUE);
      MrcEstimator merged = cluster.estimators().all();
      double[] estimate = merged.missRatioCurve(SIZES).missRatios();
      double[] volume = volumeMissRatios(first);
      clusterMae[k] = mae(estimate, exact);
      distanceToVolume[k] = mae(estimate, volume);
      for (int i = 0; i < SIZES.length; i++) {
        largestGapToVolume[k] = Math.max(largestGapToVolume[k], Math.abs(estimate[i] - volume[i]));
      }
      report.append(String.format("  key %d: cluster %s (R %.4f, WSS %,d blocks), MAE %.4f vs the merged stream,"
              + " %.4f vs the first volume's %s%n", k, Arrays.toString(round(estimate)), merged.rate(),
          merged.workingSetBytes() / ShardsEstimator.BLOCK_BYTES, clusterMae[k], distanceToVolume[k],
          Arrays.toString(round(volume))));
    }
    double mean = Arrays.stream(clusterMae).average().orElseThrow();
    System.out.printf("Cluster of two volumes (CloudPhysics trace twice, the second %d s later), sizes %s MiB,"
            + " references from %s%n  exact merged %s%n%s  cluster MAE min %.4f mean %.4f max %.4f%n",
        SHIFT_SECONDS, Arrays.toString(Arrays.stream(SIZES).map(b -> b / MIB).toArray()), agent.name(),
        Arrays.toString(round(exact)), report, Arrays.stream(clusterMae).min().orElseThrow(), mean,
        Arrays.stream(clusterMae).max().orElseThrow());

    assertThat(mean).as("cluster MRC vs the merged stream's exact MRC, mean of %d keys", KEYS)
        .isLessThanOrEqualTo(MAX_MEAN_MAE);
    // At 1 GiB one volume's footprint fits (miss ratio 0.24), the cluster's does not (0.44).
    assertThat(Arrays.stream(largestGapToVolume).boxed()).as("the cluster's MRC is not a volume's")
        .allSatisfy(d -> assertThat(d).isGreaterThan(0.15));
  }

  @Test
  void aVolumeSampledOtherwiseIsRefused() {
    ClusterStream cluster = new ClusterStream(MrcEstimators.DEFAULT);
    cluster.offer(batch("v1", 1 << 24, 0), 0);
    assertThatThrownBy(() -> cluster.offer(batch("v2", 1 << 20, 0), 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("P = 1048576");
    assertThatThrownBy(() -> cluster.offer(batch("v3", 100, 0), 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not divide 2^24");
    ReferenceBatchEvent withSketch = batch("v1", 1 << 24, 1_000);
    withSketch.distinctBlocksHllPrecision = 16;
    withSketch.consideredReferences = 1;
    withSketch.distinctBlocksHllUpdates = new int[] {(5 << 8) | 3};
    cluster.offer(withSketch, 0);
    cluster.release(Long.MAX_VALUE);
    ReferenceBatchEvent otherPrecision = batch("v2", 1 << 24, 2_000);
    otherPrecision.distinctBlocksHllPrecision = 14;
    assertThatThrownBy(() -> cluster.offer(otherPrecision, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("p = 14");
    assertThatThrownBy(() -> new ClusterStream(new MrcEstimators(MrcEstimator.METHOD_FIXED_RATE, 1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fixed-size");
  }

  @Test
  void referencesWaitForEveryVolumeAndComeOutInTimeOrderAndALateBatchIsNotDropped() {
    ClusterStream cluster = new ClusterStream(MrcEstimators.DEFAULT);
    assertThat(cluster.offer(batch("v1", 1 << 24, 1_000, 5_000), 0)).isFalse();
    assertThat(cluster.offer(batch("v2", 1 << 24, 3_000), 0)).isFalse();
    assertThat(cluster.watermark(0, 1)).as("v1 sent up to 5 us, v2 up to 3 us").isEqualTo(1_000_000_000L + 3_000);
    assertThat(cluster.release(cluster.watermark(0, 1))).as("v1's first, then v2's").isEqualTo(2);
    assertThat(cluster.offer(batch("v2", 1 << 24, 2_000), 0)).as("late: it starts before 3 us, released").isTrue();
    assertThat(cluster.release(Long.MAX_VALUE)).as("v2's late one at 3 us, then v1's second").isEqualTo(2);
    assertThat(cluster.estimators().all().references()).isEqualTo(4);
    assertThat(cluster.volumeIds()).containsExactly("v1", "v2");
  }

  @Test
  void aVolumeThatSentNoBatchForTheIdleTimeoutNoLongerHoldsTheOthersBack() {
    ClusterStream cluster = new ClusterStream(MrcEstimators.DEFAULT);
    cluster.offer(batch("quiet", 1 << 24, 1_000), 0);
    cluster.offer(batch("busy", 1 << 24, 5_000), 0);
    cluster.offer(batch("busy", 1 << 24, 9_000), 60_000);
    assertThat(cluster.watermark(119_999, 120_000)).as("quiet's batch came 119.999 s before: it holds")
        .isEqualTo(1_000_000_000L + 1_000);
    assertThat(cluster.watermark(120_000, 120_000)).as("120 s before: busy's latest").isEqualTo(1_000_000_000L + 9_000);
    assertThat(cluster.watermark(180_000, 120_000)).as("none live: everything").isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void referencesOfTheSameTimeComeOutInVolumeIdOrderWhicheverVolumeCameFirst() throws Exception {
    byte[][] states = new byte[2][];
    for (int order = 0; order < 2; order++) {
      ClusterStream cluster = new ClusterStream(MrcEstimators.DEFAULT);
      List<ReferenceBatchEvent> batches = new ArrayList<>(List.of(batch("v1", 1 << 24, 1_000, 3_000),
          batch("v2", 1 << 24, 1_000, 2_000)));
      if (order == 1) {
        Collections.reverse(batches); // as when v2's partition is read first
      }
      batches.forEach(b -> cluster.offer(b, 0));
      cluster.release(Long.MAX_VALUE);
      var out = new DataOutputSerializer(1 << 12);
      cluster.estimators().writeTo(out);
      states[order] = out.getCopyOfBuffer();
    }
    assertThat(states[1]).as("v1's reference at 1 us first either way").isEqualTo(states[0]);
  }

  @Test
  void aHostsAgentsSharesAddUpAsTheyComeAndReferencesOrAnotherSampleStartTheWindowsAgain() {
    ClusterStream host = new ClusterStream(MrcEstimators.DEFAULT);
    host.offer(batch("v1", 1 << 24, 1_000, 2_000), 0);
    host.release(Long.MAX_VALUE);
    assertThat(host.estimators().all().references()).isEqualTo(2);
    host.addShares(withShares(batch("v1", 1 << 24, 3_000), 7, 10), 0);
    assertThat(host.estimators().all().references()).as("the agent's windows from here: the merge's dropped").isEqualTo(10);
    host.addShares(withShares(batch("v2", 1 << 24, 2_500), 7, 5), 0);
    assertThat(host.estimators().all().references()).as("a volume's share, in any order").isEqualTo(15);
    assertThat(host.volumeIds()).containsExactly("v1", "v2");
    assertThat(host.release(Long.MAX_VALUE)).as("nothing queued").isZero();
    assertThat(host.io().lastUnixNano).as("v2's earlier batch after v1's: the I/O mix's span does not go back")
        .isEqualTo(1_000_000_000L + 3_000);
    host.addShares(withShares(batch("v2", 1 << 24, 4_000), 8, 3), 0);
    assertThat(host.estimators().all().references()).as("another sample: the agent restarted afresh").isEqualTo(3);
    assertThat(host.volumeIds()).containsExactly("v2");
    host.offer(batch("v1", 1 << 24, 5_000), 0);
    host.release(Long.MAX_VALUE);
    assertThat(host.estimators().all().references()).as("references again: the merge starts afresh").isEqualTo(1);
    assertThatThrownBy(() -> host.addShares(batch("v1", 1 << 24, 6_000), 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no shares");
  }

  /** {@code batch} with a share of its host's tier's sample {@code sampleId}: 'all' at rate 1, {@code refs} first reads. */
  static ReferenceBatchEvent withShares(ReferenceBatchEvent batch, long sampleId, long refs) {
    WindowShares w = new WindowShares();
    w.maxSamples = ShardsFixedSize.DEFAULT_MAX_SAMPLES;
    w.sampleId = sampleId;
    w.samplingThreshold = batch.samplingThreshold;
    w.lastReferenceUnixNano = batch.referenceTimeUnixNano(batch.size() - 1);
    w.windowSeconds = new int[] {0};
    w.paneStartUnixNano = new long[] {0};
    w.paneFirstUnixNano = new long[] {batch.referenceTimeUnixNano(0)};
    w.references = new long[] {refs};
    w.readReferences = new long[] {refs};
    w.weight = new double[] {refs};
    w.readWeight = new double[] {refs};
    w.firstWeight = new double[] {refs};
    w.blockRepeats = new long[1];
    w.readRepeats = new long[1];
    w.writeRepeats = new long[1];
    w.hitStart = new int[] {0, 0};
    w.hitBuckets = new int[0];
    w.hitWeights = new double[0];
    w.readHitStart = new int[] {0, 0};
    w.readHitBuckets = new int[0];
    w.readHitWeights = new double[0];
    batch.hostTierWorkingSet = w;
    return batch;
  }

  /** A batch of volume {@code volumeId} with one read of block i at each offset (ns, from 1 s). */
  public static ReferenceBatchEvent batch(String volumeId, long modulus, long... offsetsNanos) {
    ReferenceBatchEvent e = new ReferenceBatchEvent();
    e.tenantId = "t";
    e.volumeId = volumeId;
    e.batchId = volumeId + "-" + offsetsNanos.length;
    e.samplingModulus = modulus;
    e.samplingThreshold = modulus;
    e.baseTimeUnixNano = 1_000_000_000L;
    int n = offsetsNanos.length;
    e.blockHashes = new long[n];
    e.writes = new boolean[n];
    e.lengthBlocks = new int[n];
    e.timeOffsetsMicros = new long[n];
    for (int i = 0; i < n; i++) {
      e.blockHashes[i] = i;
      e.lengthBlocks[i] = 1;
      e.timeOffsetsMicros[i] = offsetsNanos[i] / 1000;
    }
    return e;
  }

  /** The agent's batches through the job's validation, as volume {@code volumeId}, shifted by {@code shiftNanos}. */
  private static List<ReferenceBatchEvent> events(List<ReferenceBatch> batches, String volumeId, long shiftNanos)
      throws Exception {
    ReferenceBatchParser parser = new ReferenceBatchParser();
    List<ReferenceBatchEvent> events = new ArrayList<>();
    for (ReferenceBatch b : batches) {
      ReferenceBatchEvent e = parser.parse("00000000-0000-0000-0000-000000000000", b);
      e.volumeId = volumeId;
      e.baseTimeUnixNano += shiftNanos;
      events.add(e);
    }
    return events;
  }

  /** Fixed-size SHARDS of one volume's stream, as the job keeps it. */
  private static double[] volumeMissRatios(List<ReferenceBatchEvent> events) {
    ShardsFixedSize s = new ShardsFixedSize(events.get(0).samplingModulus, events.get(0).samplingThreshold,
        ShardsFixedSize.DEFAULT_MAX_SAMPLES);
    for (ReferenceBatchEvent e : events) {
      s.lowerThreshold(e.samplingThreshold);
      s.addStreamTotals(e.consideredReferences, e.distinctBlocksHllPrecision, e.distinctBlocksHllUpdates);
      for (int i = 0; i < e.size(); i++) {
        s.reference(e.blockHashes[i], e.writes[i]);
      }
    }
    return s.missRatioCurve(SIZES).missRatios();
  }

  /** Exact LRU over both volumes' block references merged by time (ties: the first volume's first). */
  private static double[] exactMergedMissRatios(Path trace) throws Exception {
    List<VscsiTrace.BlockRef> refs = VscsiTrace.blockReferences(trace);
    long shiftMicros = SHIFT_SECONDS * 1_000_000L;
    ExactLru lru = new ExactLru(SIZES);
    int a = 0;
    int b = 0;
    while (a < refs.size() || b < refs.size()) {
      boolean takeFirst = b == refs.size()
          || (a < refs.size() && refs.get(a).timeMicros() <= refs.get(b).timeMicros() + shiftMicros);
      // A block of each volume is a block of its own in the shared tier.
      lru.reference(takeFirst ? 2 * refs.get(a++).block() : 2 * refs.get(b++).block() + 1);
    }
    return lru.missRatios();
  }

  private static double mae(double[] x, double[] y) {
    double sum = 0;
    for (int i = 0; i < x.length; i++) {
      sum += Math.abs(x[i] - y[i]);
    }
    return sum / x.length;
  }

  private static double[] round(double[] v) {
    return Arrays.stream(v).map(x -> Math.round(x * 1e4) / 1e4).toArray();
  }
}
