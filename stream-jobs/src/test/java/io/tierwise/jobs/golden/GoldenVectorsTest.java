package io.tierwise.jobs.golden;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import io.tierwise.jobs.metrics.IntervalMetrics;
import io.tierwise.jobs.metrics.OtlpMetricsParser;
import io.tierwise.jobs.testing.Repo;
import io.tierwise.proto.v1.IngestRecord;
import io.tierwise.proto.v1.ReferenceBatch;
import io.tierwise.proto.v1.ReferenceBatches;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The golden vectors of proto/testdata (layout: proto/testdata/README.md), decoded with the
 * Java classes this module uses: the JSON (proto3 JSON mapping) and the binary must give equal
 * messages, and re-serialising must reproduce the binary byte for byte.
 */
class GoldenVectorsTest {
  private static final Path DIR = Repo.root().resolve("proto/testdata");
  private static final Map<String, Supplier<Message.Builder>> BUILDERS = Map.of(
      "tierwise.v1.ReferenceBatch", ReferenceBatch::newBuilder,
      "tierwise.v1.ReferenceBatches", ReferenceBatches::newBuilder,
      "tierwise.v1.IngestRecord", IngestRecord::newBuilder,
      "opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest", ExportMetricsServiceRequest::newBuilder,
      "opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse", ExportMetricsServiceResponse::newBuilder);

  static Stream<JsonNode> vectors() throws Exception {
    List<JsonNode> all = new ArrayList<>();
    new ObjectMapper().readTree(DIR.resolve("manifest.json").toFile()).forEach(all::add);
    assertThat(all).as("vectors in %s/manifest.json", DIR).isNotEmpty();
    return all.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void jsonAndBinaryDecodeToTheSameMessageAndTheBinaryRoundTrips(JsonNode vector) throws Exception {
    String name = vector.get("name").asText();
    Supplier<Message.Builder> builder = BUILDERS.get(vector.get("type").asText());
    assertThat(builder).as("a Java class for %s", vector.get("type")).isNotNull();
    byte[] bin = Files.readAllBytes(DIR.resolve(name + ".bin"));
    Message.Builder fromJson = builder.get();
    JsonFormat.parser().merge(Files.readString(DIR.resolve(name + ".json")), fromJson);
    Message expected = fromJson.build();
    Message actual = builder.get().mergeFrom(bin).build();
    assertThat(actual).isEqualTo(expected);
    assertThat(expected.toByteArray()).isEqualTo(bin);
  }

  @Test
  void unsignedAndLargeValuesSurviveDecoding() throws Exception {
    ReferenceBatch refs = ReferenceBatch.parseFrom(Files.readAllBytes(DIR.resolve("reference_batch.bin")));
    assertThat(Long.toUnsignedString(refs.getReferences(0).getBlockHash())).isEqualTo("18446744073709551615");
    assertThat(refs.getReferences(3).getTimeOffsetUs()).isEqualTo(4294967301L);
    assertThat(refs.getSamplingModulus()).isEqualTo(1L << 24);

    IngestRecord record = IngestRecord.parseFrom(Files.readAllBytes(DIR.resolve("ingest_record_metrics.bin")));
    assertThat(record.getPayload().toByteArray()).isEqualTo(Files.readAllBytes(DIR.resolve("export_metrics_request.bin")));
    List<IntervalMetrics> intervals = new OtlpMetricsParser().parse(record);
    assertThat(intervals).hasSize(1);
    IntervalMetrics m = intervals.get(0);
    assertThat(m.volumeId).isEqualTo("c0ffee00d15ea5e1");
    assertThat(m.intervalStartUnixNano).isEqualTo(1_700_000_000_000_000_000L);
    assertThat(m.intervalSeconds()).isEqualTo(10.0);
    assertThat(m.io.readOps).as("frontend reads only").isEqualTo(955);
    assertThat(m.io.readBytes).isEqualTo(9_881_088);
    assertThat(m.capacityBytes).as("2^53 + 1 kept exactly").isEqualTo((1L << 53) + 1);
    assertThat(m.occupancyBytes).isEqualTo(64L << 30);
    long histogramOps = 0;
    for (long c : m.blockSizes.readOps) {
      histogramOps += c;
    }
    assertThat(histogramOps).as("histogram count = frontend read operations").isEqualTo(955);
  }
}
