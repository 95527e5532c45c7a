package io.tierwise.jobs.recommend;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

class RecommendationChangeFilterTest {
  private static Recommendation rec(long tierBytes, String media, String policy, double predicted) {
    Recommendation r = new Recommendation();
    r.tenantId = "t";
    r.volumeId = "v";
    r.tierBytes = tierBytes;
    r.media = media;
    r.policy = policy;
    r.predictedHitRatio = predicted;
    return r;
  }

  @Test
  void passesOnlyMaterialChanges() throws Exception {
    KeyedOneInputStreamOperatorTestHarness<String, Recommendation, Recommendation> h =
        ProcessFunctionTestHarnesses.forKeyedProcessFunction(new RecommendationChangeFilter(0.02),
            r -> r.tenantId + "/" + r.volumeId, Types.STRING);
    try {
      h.processElement(rec(1 << 30, "nvme", "write-through", 0.50), 0);
      h.processElement(rec(1 << 30, "nvme", "write-through", 0.51), 0);
      h.processElement(rec(1 << 30, "nvme", "write-through", 0.535), 0);
      h.processElement(rec(1 << 30, "ram", "write-through", 0.535), 0);
      h.processElement(rec(1 << 30, "ram", "write-back", 0.535), 0);
      h.processElement(rec(2L << 30, "ram", "write-back", 0.535), 0);
      assertThat(h.extractOutputValues()).extracting(r -> r.media + "/" + r.policy + "/" + r.tierBytes + "/" + r.predictedHitRatio)
          .containsExactly("nvme/write-through/1073741824/0.5", "nvme/write-through/1073741824/0.535",
              "ram/write-through/1073741824/0.535", "ram/write-back/1073741824/0.535", "ram/write-back/2147483648/0.535");
    } finally {
      h.close();
    }
  }
}
