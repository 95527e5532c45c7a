package io.tierwise.jobs.recommend;

import static io.tierwise.jobs.workingset.MissRatioCurve.GIB;
import static io.tierwise.jobs.workingset.MissRatioCurve.MIB;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tierwise.jobs.workingset.MissRatioCurve;
import java.util.function.LongToDoubleFunction;
import org.junit.jupiter.api.Test;

class TierRecommenderTest {
  /**
   * A stepped MRC: everything misses below {@code knee}, miss ratio {@code middle} from the knee,
   * the cold-miss floor {@code floor} from {@code 2 x knee}.
   */
  private static LongToDoubleFunction stepped(long knee, double middle, double floor) {
    return bytes -> bytes >= 2 * knee ? floor : bytes >= knee ? middle : 1.0;
  }

  private static TierRecommender.Input input(LongToDoubleFunction mrc, double readShare, long wssBytes, long refs) {
    long[] sizes = MissRatioCurve.cacheSizeGrid(wssBytes);
    double[] miss = new double[sizes.length];
    for (int i = 0; i < sizes.length; i++) {
      miss[i] = mrc.applyAsDouble(sizes[i]);
    }
    return new TierRecommender.Input("t", "v", new MissRatioCurve(sizes, miss), mrc, readShare, wssBytes, 0.01, refs);
  }

  @Test
  void readHeavySmallWorkingSetGetsRamRoundedTo256MiB() throws Exception {
    // Hit ratio 0.7 from 384 MiB, 0.8 (achievable) from 768 MiB: target 0.72 needs 768 MiB.
    Recommendation r = TierRecommender.recommend(input(stepped(384 * MIB, 0.3, 0.2), 0.9, 700 * MIB, 5000)).orElseThrow();
    assertThat(r.achievableHitRatio).isCloseTo(0.8, within(1e-12));
    assertThat(r.targetHitRatio).isCloseTo(0.72, within(1e-12));
    assertThat(r.tierBytes).isEqualTo(768 * MIB);
    assertThat(r.media).isEqualTo("ram");
    assertThat(r.policy).isEqualTo("write-through");
    assertThat(r.predictedHitRatio).isCloseTo(0.8, within(1e-12));
    assertThat(r.explanation).contains("Reads are 90.0 %", "768 MiB", "RAM because", "Write-through");
    JsonNode inputs = new ObjectMapper().readTree(r.inputsJson);
    assertThat(inputs.get("read_share").asDouble()).isEqualTo(0.9);
    assertThat(inputs.get("required_cache_bytes").asLong()).isEqualTo(768 * MIB);
    assertThat(inputs.get("mrc_points")).hasSize(MissRatioCurve.cacheSizeGrid(700 * MIB).length);
  }

  @Test
  void mixedWorkloadGetsNvmeRoundedToGibAndPredictionAtThatSize() {
    // Required 768 MiB, rounded up to 1 GiB of NVMe: the prediction is read at 1 GiB.
    Recommendation r = TierRecommender.recommend(input(stepped(384 * MIB, 0.3, 0.2), 0.6, 700 * MIB, 5000)).orElseThrow();
    assertThat(r.media).isEqualTo("nvme");
    assertThat(r.tierBytes).isEqualTo(GIB);
    assertThat(r.policy).isEqualTo("write-through");
    assertThat(r.explanation).contains("NVMe because reads are under 70.0 %");
  }

  @Test
  void writeHeavyGetsWriteBack() {
    Recommendation r = TierRecommender.recommend(input(stepped(64 * MIB, 0.5, 0.4), 0.3, 100 * MIB, 5000)).orElseThrow();
    assertThat(r.policy).isEqualTo("write-back");
    assertThat(r.media).isEqualTo("nvme");
    assertThat(r.tierBytes).isEqualTo(GIB);
    assertThat(r.explanation).contains("Write-back because writes are 70.0 %");
  }

  @Test
  void readHeavyButLargeGoesToNvme() {
    // Knee at 3 GiB: target reached at 6 GiB, more than the 4 GiB RAM limit.
    Recommendation r = TierRecommender.recommend(input(stepped(3 * GIB, 0.5, 0.1), 0.95, 5 * GIB, 5000)).orElseThrow();
    assertThat(r.media).isEqualTo("nvme");
    assertThat(r.tierBytes).isEqualTo(6 * GIB);
    assertThat(r.explanation).contains("more than the 4 GiB RAM limit");
  }

  @Test
  void noRecommendationWithoutReuseOrWithTooLittleData() {
    assertThat(TierRecommender.recommend(input(b -> 1.0, 0.9, 10 * MIB, 5000))).isEmpty();
    assertThat(TierRecommender.recommend(input(stepped(64 * MIB, 0.3, 0.2), 0.9, 100 * MIB, 999))).isEmpty();
  }
}
