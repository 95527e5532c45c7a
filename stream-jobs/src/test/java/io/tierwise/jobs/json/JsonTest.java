package io.tierwise.jobs.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Random;
import org.junit.jupiter.api.Test;

class JsonTest {
  @Test
  void aCurvesMissRatiosReadBackAsTheSameDoublesInTheShortestText() throws Exception {
    Random random = new Random(11);
    long[] sizes = new long[1_000];
    double[] ratios = new double[sizes.length];
    for (int i = 0; i < sizes.length; i++) {
      sizes[i] = 4L << (20 + i % 20);
      ratios[i] = i % 7 == 0 ? Math.pow(10, -random.nextInt(12)) : random.nextDouble();
    }
    ratios[0] = 0;
    ratios[1] = 1;
    String text = Json.text(Json.mrcPoints(sizes, ratios));
    JsonNode read = new ObjectMapper().readTree(text);
    for (int i = 0; i < sizes.length; i++) {
      assertThat(read.get(i).get("cache_bytes").asLong()).isEqualTo(sizes[i]);
      assertThat(read.get(i).get("miss_ratio").asDouble()).as("point %d", i).isEqualTo(ratios[i]);
    }
    assertThat(text).contains("\"miss_ratio\":0.0}").contains("\"miss_ratio\":1.0}").contains("\"miss_ratio\":1.0E-11}");
  }
}
