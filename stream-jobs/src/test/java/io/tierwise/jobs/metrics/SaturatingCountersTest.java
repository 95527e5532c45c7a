package io.tierwise.jobs.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.Sum;
import io.opentelemetry.proto.resource.v1.Resource;
import io.tierwise.proto.v1.IngestRecord;
import org.junit.jupiter.api.Test;

/**
 * The rollups' counters never wrap (issue 16 finding 8: two data points of 2^63 - 1 read I/Os
 * were read back as -2): every merge of counters saturates at 2^63 - 1.
 */
class SaturatingCountersTest {
  @Test
  void addsBelowTheLimitAndStaysThereAbove() {
    assertThat(SaturatingCounters.add(2, 3)).isEqualTo(5);
    assertThat(SaturatingCounters.add(Long.MAX_VALUE, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
    assertThat(SaturatingCounters.add(Long.MAX_VALUE - 1, 1)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void ioCountersSourcesLatencyAndBlockSizesSaturate() {
    IoCounters io = new IoCounters();
    io.readOps = Long.MAX_VALUE;
    io.writeBytes = Long.MAX_VALUE - 5;
    io.add(io.copy());
    assertThat(io.readOps).isEqualTo(Long.MAX_VALUE);
    assertThat(io.writeBytes).isEqualTo(Long.MAX_VALUE);

    long[] buckets = new long[LatencyHistograms.BUCKETS];
    buckets[3] = Long.MAX_VALUE;
    LatencyHistograms latency = new LatencyHistograms();
    latency.add(false, 4, buckets);
    latency.add(latency.copy());
    assertThat(latency.counts).containsOnly(Long.MAX_VALUE);

    SourceIo sources = new SourceIo();
    sources.ops[0] = Long.MAX_VALUE;
    sources.add(sources.copy());
    assertThat(sources.ops[0]).isEqualTo(Long.MAX_VALUE);

    BlockSizeCounts sizes = new BlockSizeCounts();
    sizes.readOps[2] = Long.MAX_VALUE;
    BlockSizeCounts more = new BlockSizeCounts();
    more.readOps[2] = 1;
    sizes.add(more);
    assertThat(sizes.readOps[2]).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void theParserSaturatesWhenOneBatchAddsUpPastTheLimit() throws Exception {
    // 40,000 points of the largest value a point may have, in one interval: 2^63 would be passed.
    Sum.Builder sum = Sum.newBuilder().setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA);
    for (int i = 0; i < 40_000; i++) {
      sum.addDataPoints(NumberDataPoint.newBuilder().setStartTimeUnixNano(1_000_000_000L).setTimeUnixNano(11_000_000_000L)
          .setAsInt(OtlpMetricsParser.MAX_DELTA_VALUE).addAttributes(attribute("io.direction", "read"))
          .addAttributes(attribute("io.source", "frontend")));
    }
    ExportMetricsServiceRequest request = ExportMetricsServiceRequest.newBuilder().addResourceMetrics(ResourceMetrics.newBuilder()
        .setResource(Resource.newBuilder().addAttributes(attribute("tierwise.volume.id", "c0ffee00d15ea5e1")))
        .addScopeMetrics(ScopeMetrics.newBuilder().addMetrics(Metric.newBuilder().setName("tierwise.io.operations").setSum(sum))))
        .build();
    IntervalMetrics m = new OtlpMetricsParser().parse(IngestRecord.newBuilder()
        .setTenantId("00000000-0000-4000-8000-000000000001").setPayload(request.toByteString()).build()).get(0);
    assertThat(m.io.readOps).isEqualTo(Long.MAX_VALUE);
  }

  private static KeyValue attribute(String key, String value) {
    return KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setStringValue(value)).build();
  }
}
