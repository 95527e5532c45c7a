package io.tierwise.jobs.workingset.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tierwise.jobs.testing.BlockHashes;
import io.tierwise.jobs.testing.ExactLru;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/** A window pane read off the stream's one sample against a sample of the pane's own references. */
class WindowPaneTest {
  private static final long SECOND = 1_000_000_000L;
  private static final long T0 = 1_700_000_000L * SECOND;
  private static final long P = 1L << 24;
  private static final long[] SIZES = MissRatioCurve.cacheSizeGrid(256 * MissRatioCurve.MIB);

  /**
   * Three hours of references, one every 100 ms: a hot set that moves every hour, a cold scan,
   * a quarter of them writes. Element i: {block, write ? 1 : 0}.
   */
  private static long[][] threeHours(int hotBlocks, int coldBlocks, long seed) {
    Random r = new Random(seed);
    long[][] refs = new long[3 * 36_000][];
    for (int i = 0; i < refs.length; i++) {
      long hour = i / 36_000;
      long block = r.nextInt(10) < 7 ? hour * hotBlocks + r.nextInt(hotBlocks) : 1_000_000 + r.nextInt(coldBlocks);
      refs[i] = new long[] {block, r.nextInt(4) == 0 ? 1 : 0};
    }
    return refs;
  }

  private static WindowedEstimators.Result window(WindowedEstimators w, String name) {
    return w.results().stream().filter(x -> x.window().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void unsampledAPaneIsTheExactCurveOfItsOwnReferences() throws Exception {
    long[][] refs = threeHours(2000, 20_000, 1);
    WindowedEstimators w = new WindowedEstimators(new MrcEstimators(MrcEstimator.METHOD_FIXED_SIZE, 1 << 20), P, P);
    for (int i = 0; i < refs.length; i++) {
      w.reference(BlockHashes.of(refs[i][0]), refs[i][1] == 1, T0 + i * SECOND / 10);
    }
    WindowedEstimators.Result hour = window(w, "1h");
    assertThat(hour.estimator()).isInstanceOf(PaneEstimate.class);
    ShardsFixedSize own = new ShardsFixedSize(P, P, 1 << 20);
    Set<Long> read = new HashSet<>();
    Set<Long> written = new HashSet<>();
    for (int i = 0; i < refs.length; i++) {
      if (T0 + i * SECOND / 10 >= hour.startUnixNano()) {
        own.reference(BlockHashes.of(refs[i][0]), refs[i][1] == 1);
        (refs[i][1] == 1 ? written : read).add(refs[i][0]);
      }
    }
    own.addStreamTotals(0, 0, new int[0]);
    MrcEstimate pane = hour.estimator();
    assertThat(pane.references()).isEqualTo(own.references());
    assertThat(pane.readReferences()).isEqualTo(own.readReferences());
    assertThat(pane.workingSetBytes()).isEqualTo(own.workingSetBytes());
    assertThat(pane.readWorkingSetBytes()).isEqualTo(read.size() * 4096L);
    assertThat(pane.writeWorkingSetBytes()).isEqualTo(written.size() * 4096L);
    assertThat(pane.missRatioCurve(SIZES).missRatios()).containsExactly(own.missRatioCurve(SIZES).missRatios(),
        within(1e-12));
    assertThat(pane.readMissRatioCurve(SIZES).orElseThrow().missRatios())
        .containsExactly(own.readMissRatioCurve(SIZES).orElseThrow().missRatios(), within(1e-12));
  }

  @Test
  void sampledAPaneEstimatesItsOwnReferencesAndSurvivesACheckpoint() throws Exception {
    // 'all' holds at most 4,096 of about 60,000 blocks; the last hour references about 20,000 of them.
    long[][] refs = threeHours(15_000, 20_000, 2);
    WindowedEstimators w = WindowedEstimators.withPolicies(new MrcEstimators(MrcEstimator.METHOD_FIXED_SIZE, 4096),
        P, P);
    for (int i = 0; i < refs.length; i++) {
      w.reference(BlockHashes.of(refs[i][0]), refs[i][1] == 1, T0 + i * SECOND / 10);
    }
    WindowedEstimators.Result hour = window(w, "1h");
    ExactLru exact = new ExactLru(SIZES);
    Set<Long> blocks = new HashSet<>();
    Set<Long> read = new HashSet<>();
    Set<Long> written = new HashSet<>();
    for (int i = 0; i < refs.length; i++) {
      if (T0 + i * SECOND / 10 >= hour.startUnixNano()) {
        exact.reference(refs[i][0]);
        blocks.add(refs[i][0]);
        (refs[i][1] == 1 ? written : read).add(refs[i][0]);
      }
    }
    MrcEstimate pane = hour.estimator();
    assertThat(pane.rate()).isLessThan(0.1);
    assertThat((double) pane.workingSetBytes()).isCloseTo(blocks.size() * 4096.0, within(0.1 * blocks.size() * 4096));
    assertThat((double) pane.readWorkingSetBytes()).isCloseTo(read.size() * 4096.0, within(0.1 * read.size() * 4096));
    assertThat((double) pane.writeWorkingSetBytes()).isCloseTo(written.size() * 4096.0,
        within(0.15 * written.size() * 4096));
    double[] estimated = pane.missRatioCurve(SIZES).missRatios();
    double[] truth = exact.missRatios();
    double error = 0;
    for (int i = 0; i < truth.length; i++) {
      error += Math.abs(estimated[i] - truth[i]) / truth.length;
    }
    assertThat(error).as("mean absolute error of the pane's MRC").isLessThan(0.03);

    DataOutputSerializer out = new DataOutputSerializer(1 << 16);
    WindowedEstimatorsSerializer.INSTANCE.serialize(w, out);
    assertThat((double) w.stateBytes()).isCloseTo(out.length(), within(0.001 * out.length()));
    WindowedEstimators restored = WindowedEstimatorsSerializer.INSTANCE.deserialize(
        new DataInputDeserializer(out.getCopyOfBuffer()));
    WindowedEstimators copy = w.copy();
    for (int i = 0; i < 1000; i++) {
      long t = T0 + (refs.length + i) * SECOND / 10;
      restored.reference(BlockHashes.of(5_000_000 + i), false, t);
      copy.reference(BlockHashes.of(5_000_000 + i), false, t);
    }
    assertThat(window(restored, "1h").estimator().missRatioCurve(SIZES).missRatios())
        .containsExactly(window(copy, "1h").estimator().missRatioCurve(SIZES).missRatios());
    assertThat(window(w, "1h").estimator().references()).as("the copy is independent").isEqualTo(pane.references());
  }
}
