package io.tierwise.jobs.workingset.estimate;

import static io.tierwise.jobs.workingset.estimate.MissRatioCurve.GIB;
import static io.tierwise.jobs.workingset.estimate.MissRatioCurve.MIB;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MissRatioCurveTest {
  @Test
  void gridDoublesWithHalfStepsUpToTwoGibAtLeast() {
    long[] grid = MissRatioCurve.cacheSizeGrid(10 * MIB);
    assertThat(grid).startsWith(4 * MIB, 6 * MIB, 8 * MIB, 12 * MIB, 16 * MIB, 24 * MIB);
    assertThat(grid[grid.length - 1]).isEqualTo(2 * GIB);
    assertThat(grid).hasSize(19); // 10 powers of two (4 MiB .. 2 GiB) and 9 half steps
  }

  @Test
  void gridReachesTwiceTheWorkingSet() {
    long[] grid = MissRatioCurve.cacheSizeGrid(5 * GIB);
    assertThat(grid[grid.length - 1]).isEqualTo(12 * GIB);
    assertThat(grid[grid.length - 2]).isLessThan(10 * GIB);
  }

  @Test
  void findsTheSmallestSizeReachingATargetHitRatio() {
    MissRatioCurve mrc = new MissRatioCurve(new long[] {1, 2, 3}, new double[] {0.9, 0.5, 0.4});
    assertThat(mrc.achievableHitRatio()).isEqualTo(0.6);
    assertThat(mrc.smallestReaching(0.5)).hasValue(1);
    assertThat(mrc.smallestReaching(0.61)).isEmpty();
  }

  @Test
  void rejectsMalformedCurves() {
    assertThatThrownBy(() -> new MissRatioCurve(new long[] {2, 1}, new double[] {0.5, 0.4}))
        .hasMessageContaining("must increase");
    assertThatThrownBy(() -> new MissRatioCurve(new long[] {1}, new double[] {1.5}))
        .hasMessageContaining("outside [0, 1]");
    assertThatThrownBy(() -> new MissRatioCurve(new long[] {}, new double[] {}))
        .hasMessageContaining(">= 1");
  }
}
