package io.tierwise.jobs.pacing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CoarseWritesTest {
  @Test
  void volumesThatStartedTogetherWriteSpreadOverThePeriod() {
    CoarseWrites writes = new CoarseWrites(60_000);
    int[] perTenSeconds = new int[6];
    Random random = new Random(7);
    for (int i = 0; i < 6_000; i++) {
      String key = new UUID(random.nextLong(), random.nextLong()) + "/" + new UUID(random.nextLong(), random.nextLong());
      long phase = writes.phaseMillis(key);
      assertThat(phase).isBetween(0L, 59_999L);
      assertThat(writes.phaseMillis(new String(key))).as("the same key, the same phase").isEqualTo(phase);
      perTenSeconds[(int) (phase / 10_000)]++;
    }
    // Uniform: 1,000 keys expected in each sixth of the period (binomial sd ~29).
    assertThat(Arrays.stream(perTenSeconds).min().getAsInt()).isGreaterThanOrEqualTo(850);
    assertThat(Arrays.stream(perTenSeconds).max().getAsInt()).isLessThanOrEqualTo(1_150);
  }
}
