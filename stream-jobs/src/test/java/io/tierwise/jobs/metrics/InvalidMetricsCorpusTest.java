package io.tierwise.jobs.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.util.JsonFormat;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.tierwise.jobs.ingest.InvalidRecordException;
import io.tierwise.jobs.testing.Repo;
import io.tierwise.proto.v1.IngestRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The batches of proto/testdata/invalid_metrics.json, which ingest refuses with 400
 * (services/ingest invalid-metrics.spec.ts), are rejected by the parser with the same reason; the
 * base batch is parsed.
 */
class InvalidMetricsCorpusTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path DIR = Repo.root().resolve("proto/testdata");
  private static final String TENANT = "00000000-0000-4000-8000-000000000001";

  private static JsonNode corpus() throws Exception {
    return JSON.readTree(Files.readString(DIR.resolve("invalid_metrics.json")));
  }

  static Stream<Arguments> cases() throws Exception {
    List<Arguments> out = new ArrayList<>();
    corpus().get("cases").forEach(c -> out.add(Arguments.of(c.get("name").asText(), c.get("set"), c.get("reason").asText())));
    return out.stream();
  }

  @Test
  void parsesTheBaseBatch() throws Exception {
    assertThat(parse(batch(JSON.createObjectNode()))).hasSize(1);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void rejects(String name, JsonNode set, String reason) throws Exception {
    ExportMetricsServiceRequest request = batch(set);
    assertThatThrownBy(() -> parse(request)).isInstanceOf(InvalidRecordException.class).hasMessageContaining(reason);
  }

  private static List<IntervalMetrics> parse(ExportMetricsServiceRequest request) throws Exception {
    return new OtlpMetricsParser().parse(
        IngestRecord.newBuilder().setTenantId(TENANT).setPayload(request.toByteString()).build());
  }

  private static ExportMetricsServiceRequest batch(JsonNode set) throws Exception {
    JsonNode json = JSON.readTree(Files.readString(DIR.resolve(corpus().get("base").asText())));
    for (Iterator<Map.Entry<String, JsonNode>> it = set.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      setAt(json, Arrays.asList(e.getKey().split("\\.")), e.getValue());
    }
    ExportMetricsServiceRequest.Builder builder = ExportMetricsServiceRequest.newBuilder();
    JsonFormat.parser().merge(JSON.writeValueAsString(json), builder);
    return builder.build();
  }

  /** As the TypeScript test's setAt: `*` is every key or index the rest of the path leads on from; an index one past the end appends. */
  private static void setAt(JsonNode node, List<String> path, JsonNode value) {
    if (!node.isContainerNode()) {
      return;
    }
    String key = path.get(0);
    List<String> rest = path.subList(1, path.size());
    List<String> keys = new ArrayList<>();
    if (key.equals("*")) {
      if (node.isArray()) {
        for (int i = 0; i < node.size(); i++) {
          keys.add(String.valueOf(i));
        }
      } else {
        node.fieldNames().forEachRemaining(keys::add);
      }
    } else {
      keys.add(key);
    }
    for (String k : keys) {
      if (rest.isEmpty()) {
        if (node.isArray()) {
          ArrayNode array = (ArrayNode) node;
          int i = Integer.parseInt(k);
          if (i == array.size()) {
            array.add(value.deepCopy());
          } else {
            array.set(i, value.deepCopy());
          }
        } else {
          ((ObjectNode) node).set(k, value.deepCopy());
        }
      } else {
        JsonNode child = node.isArray() ? node.get(Integer.parseInt(k)) : node.get(k);
        if (child != null) {
          setAt(child, rest, value);
        }
      }
    }
  }
}
