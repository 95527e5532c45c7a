package io.tierwise.jobs.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tierwise.jobs.metrics.CpuTimes;
import io.tierwise.jobs.metrics.IoLengthBins;
import io.tierwise.jobs.metrics.LatencyHistograms;
import io.tierwise.jobs.metrics.SourceIo;
import io.tierwise.jobs.metrics.WorkloadHistograms;
import io.tierwise.jobs.metrics.WorkloadHistograms.Family;
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
    String text = Json.mrcPoints(sizes, ratios);
    JsonNode read = new ObjectMapper().readTree(text);
    for (int i = 0; i < sizes.length; i++) {
      assertThat(read.get(i).get("cache_bytes").asLong()).isEqualTo(sizes[i]);
      assertThat(read.get(i).get("miss_ratio").asDouble()).as("point %d", i).isEqualTo(ratios[i]);
    }
    assertThat(text).contains("\"miss_ratio\":0.0}").contains("\"miss_ratio\":1.0}").contains("\"miss_ratio\":1.0E-11}");
  }

  /** Random bucket counts, most of them zero as in real histograms; all zero now and then. */
  private static long[] counts(Random random, int buckets) {
    long[] c = new long[buckets];
    if (random.nextInt(3) > 0) {
      for (int i = 0; i < 3; i++) {
        c[random.nextInt(buckets)] = random.nextInt(4) == 0 ? Long.MAX_VALUE : 1 + random.nextInt(1000);
      }
    }
    return c;
  }

  @Test
  void theMrcDocumentsAreTheTextOfTheirTrees() {
    Random random = new Random(5);
    String[] evictions = {"lru", "s3fifo", "arc", "2q", "sieve"};
    for (int round = 0; round < 100; round++) {
      long[] sizes = new long[random.nextInt(40)];
      double[][] ratios = new double[evictions.length][sizes.length];
      for (int i = 0; i < sizes.length; i++) {
        sizes[i] = 4096L << random.nextInt(40);
        for (double[] curve : ratios) {
          curve[i] = random.nextInt(10) == 0 ? Math.pow(10, -random.nextInt(12)) : random.nextDouble();
        }
      }
      assertThat(Json.mrcPoints(sizes, ratios[0])).isEqualTo(Json.text(JsonTrees.mrcPoints(sizes, ratios[0])));
      assertThat(Json.evictionPoints(sizes, evictions, ratios))
          .isEqualTo(Json.text(JsonTrees.evictionPoints(sizes, evictions, ratios)));
    }
  }

  @Test
  void theRowDocumentsAreTheTextOfTheirTrees() {
    Random random = new Random(17);
    for (int round = 0; round < 300; round++) {
      LatencyHistograms latency = new LatencyHistograms();
      for (int d = 0; d < 2; d++) {
        for (int bin = 0; bin < IoLengthBins.COUNT; bin++) {
          latency.add(d == 1, bin, counts(random, LatencyHistograms.BUCKETS));
        }
      }
      WorkloadHistograms workload = new WorkloadHistograms();
      for (Family f : Family.values()) {
        for (int d = 0; d < f.directions; d++) {
          workload.add(f, d, counts(random, f.buckets()));
        }
      }
      SourceIo sources = new SourceIo();
      for (int s = 0; s < SourceIo.SOURCES.length; s++) {
        for (boolean write : new boolean[] {false, true}) {
          if (random.nextBoolean()) {
            sources.ops[SourceIo.slot(s, write)] = 1 + random.nextInt(100);
            sources.bytes[SourceIo.slot(s, write)] = 4096L * (1 + random.nextInt(100));
          }
          sources.addLatency(s, write, counts(random, LatencyHistograms.BUCKETS));
        }
      }
      CpuTimes cpu = new CpuTimes();
      if (random.nextBoolean()) {
        for (int m = 0; m < CpuTimes.HOST_MODES.length; m++) {
          cpu.hostMicros[m] = random.nextInt(1_000_000);
        }
        cpu.hostWallMicros = 10_000_000;
      }
      for (int k = 0; k < CpuTimes.CONSUMER_KINDS.length; k++) {
        if (random.nextBoolean()) {
          cpu.consumerMicros[k * CpuTimes.CONSUMER_MODES.length] = random.nextInt(1_000_000);
          cpu.consumerMicros[k * CpuTimes.CONSUMER_MODES.length + 1] = random.nextInt(1_000_000);
          cpu.consumerWallMicros[k] = 10_000_000;
        }
      }
      double[] sums = new double[IoLengthBins.COUNT];
      long[] ops = new long[IoLengthBins.COUNT];
      for (int bin = 0; bin < IoLengthBins.COUNT; bin++) {
        if (random.nextBoolean()) {
          ops[bin] = 1 + random.nextInt(100);
          sums[bin] = random.nextDouble() * 1e6;
        }
      }
      String label = "round " + round;
      assertThat(Json.latency(latency)).as(label).isEqualTo(Json.text(JsonTrees.latency(latency)));
      assertThat(Json.workload(workload)).as(label).isEqualTo(Json.text(JsonTrees.workload(workload)));
      assertThat(Json.sources(sources)).as(label).isEqualTo(Json.text(JsonTrees.sources(sources)));
      assertThat(Json.cpu(cpu)).as(label).isEqualTo(Json.text(JsonTrees.cpu(cpu)));
      assertThat(Json.latencySumsPerBin(sums, ops)).as(label).isEqualTo(Json.text(JsonTrees.perBin(sums, ops)));
      assertThat(Json.opsPerBin(ops)).as(label).isEqualTo(Json.text(JsonTrees.perBin(null, ops)));
    }
  }
}
