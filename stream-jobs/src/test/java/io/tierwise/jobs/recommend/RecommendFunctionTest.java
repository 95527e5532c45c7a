package io.tierwise.jobs.recommend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tierwise.jobs.metrics.IoLengthBins;
import io.tierwise.jobs.workingset.estimate.IoProfile;
import io.tierwise.jobs.workingset.estimate.MissRatioFunction;
import io.tierwise.jobs.workingset.estimate.MrcEstimator;
import io.tierwise.jobs.workingset.estimate.WindowEstimate;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * {@link RecommendFunction}, the working-set job's recommendation step, in Flink's operator test
 * harness: a volume's recommendation in force stays, through a snapshot and restore, while its
 * prediction holds on a later estimate whose curve alone asks for another tier; a shared tier's
 * is recommended afresh, stamped with its id and volume count; only material changes are emitted,
 * described; an estimate that supports no recommendation emits nothing and leaves nothing behind.
 */
class RecommendFunctionTest {
  private static final String TENANT = "3f2a0c1e-8a4b-4c1d-9e2f-0123456789ab";
  private static final long MIB = 1 << 20;

  private static KeyedOneInputStreamOperatorTestHarness<String, WindowEstimate, Recommendation> harness(
      boolean hysteresis, OperatorSubtaskState restoreFrom) throws Exception {
    var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new RecommendFunction(hysteresis)),
        WindowEstimate::key, Types.STRING);
    if (restoreFrom != null) {
      h.initializeState(restoreFrom);
    }
    h.open();
    return h;
  }

  /**
   * A read-heavy volume's 24-h estimate of 10,000 references at rate 1 (exact counts per
   * distance): {@code first} first references, the rest re-references at the distances of
   * {@code reuse} (MiB, count pairs); LRU alone, a 1-GiB working set.
   */
  private static WindowEstimate estimate(int first, long... reuse) {
    double[] counts = new double[(int) (700 * MIB / 4096)];
    for (int i = 0; i < reuse.length; i += 2) {
      counts[(int) (reuse[i] * MIB / 4096)] += reuse[i + 1];
    }
    MissRatioFunction curve = new MissRatioFunction();
    curve.sampledScale = 1;
    curve.hitWeights = counts;
    curve.total = 10_000;
    curve.expected = 10_000;
    IoProfile io = new IoProfile();
    io.readOps[IoLengthBins.of(4096)] = 9000;
    io.readBytes[IoLengthBins.of(4096)] = 9000 * 4096.0;
    io.writeOps[IoLengthBins.of(4096)] = 1000;
    io.writeBytes[IoLengthBins.of(4096)] = 1000 * 4096.0;
    io.firstUnixNano = 1;
    io.lastUnixNano = 1 + 100_000_000_000L;
    WindowEstimate e = new WindowEstimate();
    e.tenantId = TENANT;
    e.volumeId = "vol";
    e.windowName = "24h";
    e.method = MrcEstimator.METHOD_FIXED_RATE;
    e.samplingRate = 1;
    e.sampledReferences = 10_000;
    e.wssBytes = 1L << 30;
    e.missRatios = curve;
    e.readMissRatios = curve;
    e.io = io;
    return e;
  }

  /** The first estimate: its smallest RAM tier reaching the target is the one the first assertions name. */
  private static WindowEstimate yesterday() {
    return estimate(1000, 300, 9000);
  }

  /**
   * A later estimate: the achievable hit ratio rises, so the target moves past the tier in force
   * (a larger one would do alone), while that tier still hits within {@link
   * TierRecommender#HOLD_HIT_RATIO_TOLERANCE} of what it predicted.
   */
  private static WindowEstimate tomorrow() {
    return estimate(100, 300, 8850, 600, 1050);
  }

  @Test
  void aVolumesRecommendationInForceStaysThroughARestoreWhileItsPredictionHolds() throws Exception {
    var h = harness(true, null);
    h.processElement(yesterday(), 0);
    Recommendation first = h.extractOutputValues().get(0);
    assertThat(first.tierBytes).isEqualTo(512 * MIB);
    assertThat(first.media).isEqualTo("ram");
    assertThat(first.policy).isEqualTo("write-through");
    assertThat(first.predictedHitRatio).isCloseTo(0.9, within(1e-9));
    assertThat(first.volumeId).isEqualTo("vol");
    assertThat(first.clusterId).isNull();
    assertThat(first.volumes).isZero();
    assertThat(h.numKeyedStateEntries()).as("the recommendation in force").isEqualTo(1);
    assertThat(h.numProcessingTimeTimers()).isZero();

    OperatorSubtaskState snapshot = h.snapshot(1, 1);
    assertThat(snapshot.getManagedKeyedState().getStateSize())
        .as("the state keeps the recommendation in force without its inputs and explanation")
        .isLessThan(first.inputsJson.length());
    h.close();
    var restored = harness(true, snapshot);
    restored.processElement(tomorrow(), 0);
    assertThat(restored.extractOutputValues())
        .as("the tier in force holds through the restore (its prediction moved less than the tolerance): no change to emit")
        .isEmpty();
    assertThat(restored.numKeyedStateEntries()).isEqualTo(1);
    assertThat(restored.numProcessingTimeTimers()).isZero();
    restored.close();

    var afresh = harness(false, null);
    afresh.processElement(yesterday(), 0);
    afresh.processElement(tomorrow(), 0);
    assertThat(afresh.extractOutputValues()).as("without hysteresis the later curve's tier")
        .extracting(r -> r.tierBytes).containsExactly(512 * MIB, 768 * MIB);
    assertThat(afresh.numKeyedStateEntries()).as("the last recommendation emitted").isEqualTo(1);
    afresh.close();
  }

  @Test
  void onlyMaterialChangesAreEmittedAndEachIsDescribed() throws Exception {
    var h = harness(false, null);
    h.processElement(yesterday(), 0);
    h.processElement(yesterday(), 0);
    h.processElement(tomorrow(), 0);
    h.processElement(tomorrow(), 0);
    h.processElement(yesterday(), 0);
    List<Recommendation> out = h.extractOutputValues();
    assertThat(out).extracting(r -> r.tierBytes).containsExactly(512 * MIB, 768 * MIB, 512 * MIB);
    assertThat(out).allSatisfy(r -> {
      assertThat(r.inputsJson).contains("\"what_if\"");
      assertThat(r.explanation).startsWith("Over the last 24h");
    });
    h.close();
  }

  @Test
  void aSharedTiersRecommendationIsStampedWithItsIdAndVolumes() throws Exception {
    var h = harness(false, null);
    WindowEstimate cluster = yesterday();
    cluster.volumeId = null;
    cluster.clusterId = "c1";
    cluster.volumes = 3;
    WindowEstimate host = yesterday();
    host.volumeId = null;
    host.hostId = "h1";
    host.volumes = 2;
    h.processElement(cluster, 0);
    h.processElement(host, 0);
    List<Recommendation> out = h.extractOutputValues();
    assertThat(out).extracting(r -> r.clusterId + "/" + r.hostId + "/" + r.volumeId + "/" + r.volumes)
        .containsExactly("c1/null/null/3", "null/h1/null/2");
    assertThat(out).extracting(r -> r.tierBytes).containsOnly(512 * MIB);
    assertThat(h.numKeyedStateEntries()).as("each tier's last recommendation emitted").isEqualTo(2);
    assertThat(h.numProcessingTimeTimers()).isZero();
    h.close();
  }

  @Test
  void anEstimateThatSupportsNoRecommendationEmitsNothingAndLeavesNothing() throws Exception {
    var h = harness(true, null);
    WindowEstimate few = yesterday();
    few.sampledReferences = TierRecommender.MIN_SAMPLED_REFERENCES - 1;
    h.processElement(few, 0);
    assertThat(h.extractOutputValues()).isEmpty();
    assertThat(h.numKeyedStateEntries()).isZero();
    assertThat(h.numProcessingTimeTimers()).isZero();
    h.close();
  }
}
