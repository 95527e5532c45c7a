package io.tierwise.jobs.workingset.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tierwise.jobs.testing.AgentReferenceSource;
import io.tierwise.jobs.testing.RealTraces;
import io.tierwise.jobs.testing.Repo;
import io.tierwise.jobs.workingset.estimate.MissRatioCurve;
import io.tierwise.jobs.workingset.estimate.MrcEstimate;
import io.tierwise.jobs.workingset.estimate.MrcEstimators;
import io.tierwise.jobs.workingset.estimate.ShardsEstimator;
import io.tierwise.jobs.workingset.estimate.WindowedEstimators;
import io.tierwise.proto.v1.ReferenceBatch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The agent's working-set windows (edge-agent sampling/working_set_windows, shipped as each
 * batch's {@code working_set}) against the service's own over the same batches' references: on
 * every real trace, at the agent's default rate and at rate 1 (where the agent's bounded sample
 * and the service's fall many times), every window's references, working sets and LRU miss ratio
 * curves (all references and reads) are the same within 1e-9 whether the windows simulate the
 * references ({@link WindowedEstimators#reference}) or add the agent's shares ({@link
 * WindowedEstimators#addShares}), checked along the stream and at its end.
 */
class WorkingSetSharesTest {
  private static final String KEY = "000102030405060708090a0b0c0d0e0f";
  private static final long[] GRID = MissRatioCurve.cacheSizeGrid(64 * MissRatioCurve.GIB);
  private static final int CHECK_EVERY = 40;

  @Test
  void theAgentsSharesAddUpToTheWindowsOfTheReferencesOnEveryRealTrace() throws Exception {
    Path binary = AgentReferenceSource.defaultBinary();
    if (!Files.isExecutable(binary)) {
      assertThat(Repo.isCi()).as(binary + " is needed under CI (npm run -w @tierwise/edge-agent build)").isFalse();
      System.out.println("WARNING: " + binary + " not found; skipping the agent's working-set shares test");
      return;
    }
    AgentReferenceSource agent = new AgentReferenceSource(binary);
    ReferenceBatchParser parser = new ReferenceBatchParser();
    int lowered = 0;
    for (RealTraces.Stream stream : RealTraces.all()) {
      for (double rate : new double[] {0.01, 1.0}) {
        String label = stream.label() + " at R = " + rate;
        List<ReferenceBatchEvent> batches = new ArrayList<>();
        for (ReferenceBatch b : agent.sample(stream.trace(), KEY, rate, stream.volume())) {
          batches.add(parser.parse("t", b));
        }
        ReferenceBatchEvent first = batches.get(0);
        WindowedEstimators simulated =
            new WindowedEstimators(MrcEstimators.DEFAULT, first.samplingModulus, first.samplingThreshold);
        WindowedEstimators shared =
            new WindowedEstimators(MrcEstimators.DEFAULT, first.samplingModulus, first.samplingThreshold);
        for (int n = 0; n < batches.size(); n++) {
          ReferenceBatchEvent b = batches.get(n);
          assertThat(b.workingSet).as(label + " batch " + n + " carries its working set").isNotNull();
          assertThat(shared.accepts(b.workingSet)).isTrue();
          if (Long.compareUnsigned(b.samplingThreshold, simulated.threshold()) < 0) {
            simulated.lowerThreshold(b.samplingThreshold);
            shared.lowerThreshold(b.samplingThreshold);
          }
          for (WindowedEstimators w : List.of(simulated, shared)) {
            w.addStreamTotals(b.consideredReferences, b.distinctBlocksHllPrecision, b.distinctBlocksHllUpdates);
            w.addLruAnchor(b.lruAnchorHits, b.lruAnchorBlocks);
          }
          for (int i = 0; i < b.size(); i++) {
            simulated.reference(b.blockHashes[i], b.writes[i], b.referenceTimeUnixNano(i));
          }
          shared.addShares(b.workingSet);
          if (n % CHECK_EVERY == CHECK_EVERY - 1 || n == batches.size() - 1) {
            expectSame(simulated, shared, label + " after batch " + n);
          }
        }
        if (Long.compareUnsigned(((ShardsEstimator) shared.all()).currentThreshold(), first.samplingThreshold) < 0) {
          lowered++;
        }
      }
    }
    // The sample filled and T fell on most streams at rate 1: the evictions' shares were checked.
    assertThat(lowered).isGreaterThan(4);
  }

  private static void expectSame(WindowedEstimators simulated, WindowedEstimators shared, String label) {
    List<WindowedEstimators.Result> want = simulated.results();
    List<WindowedEstimators.Result> got = shared.results();
    assertThat(got.stream().map(WindowedEstimators.Result::window).toList()).as(label)
        .isEqualTo(want.stream().map(WindowedEstimators.Result::window).toList());
    for (int r = 0; r < want.size(); r++) {
      String at = label + ", window " + want.get(r).window();
      MrcEstimate a = want.get(r).estimator();
      MrcEstimate b = got.get(r).estimator();
      assertThat(got.get(r).startUnixNano()).as(at + " start").isEqualTo(want.get(r).startUnixNano());
      assertThat(got.get(r).endUnixNano()).as(at + " end").isEqualTo(want.get(r).endUnixNano());
      assertThat(b.references()).as(at + " references").isEqualTo(a.references());
      assertThat(b.readReferences()).as(at + " reads").isEqualTo(a.readReferences());
      assertThat(b.rate()).as(at + " rate").isEqualTo(a.rate());
      assertThat(b.workingSetBytes()).as(at + " working set").isEqualTo(a.workingSetBytes());
      assertThat(b.readWorkingSetBytes()).as(at + " read working set").isEqualTo(a.readWorkingSetBytes());
      assertThat(b.writeWorkingSetBytes()).as(at + " write working set").isEqualTo(a.writeWorkingSetBytes());
      double[] mrc = a.missRatioCurve(GRID).missRatios();
      double[] got2 = b.missRatioCurve(GRID).missRatios();
      for (int i = 0; i < GRID.length; i++) {
        assertThat(got2[i]).as(at + " miss ratio at " + GRID[i] + " bytes").isCloseTo(mrc[i], within(1e-9));
      }
      assertThat(b.readMissRatioCurve(GRID).isPresent()).as(at + " reads' curve").isEqualTo(
          a.readMissRatioCurve(GRID).isPresent());
      if (a.readMissRatioCurve(GRID).isPresent()) {
        double[] reads = a.readMissRatioCurve(GRID).orElseThrow().missRatios();
        double[] got3 = b.readMissRatioCurve(GRID).orElseThrow().missRatios();
        for (int i = 0; i < GRID.length; i++) {
          assertThat(got3[i]).as(at + " reads' miss ratio at " + GRID[i] + " bytes").isCloseTo(reads[i], within(1e-9));
        }
      }
    }
  }
}
