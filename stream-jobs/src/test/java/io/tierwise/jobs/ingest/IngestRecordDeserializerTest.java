package io.tierwise.jobs.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.tierwise.proto.v1.IngestRecord;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class IngestRecordDeserializerTest {
  private final IngestRecordDeserializer<String> deserializer =
      new IngestRecordDeserializer<>(r -> List.of(r.getTenantId() + ":" + r.getPayload().toStringUtf8()), Types.STRING);

  private List<String> deserialize(byte[] value) {
    List<String> out = new ArrayList<>();
    deserializer.deserialize(new ConsumerRecord<>("telemetry.refs.v1", 0, 7L, null, value), new Collector<>() {
      @Override
      public void collect(String record) {
        out.add(record);
      }

      @Override
      public void close() {}
    });
    return out;
  }

  @Test
  void passesWellFormedRecordsAndSkipsBadOnes() {
    String tenant = "3f2a0c1e-8a4b-4c1d-9e2f-0123456789ab";
    IngestRecord good = IngestRecord.newBuilder().setTenantId(tenant)
        .setPayload(com.google.protobuf.ByteString.copyFromUtf8("x")).build();
    assertThat(deserialize(good.toByteArray())).containsExactly(tenant + ":x");
    assertThat(deserialize(good.toBuilder().setTenantId("acme").build().toByteArray())).isEmpty();
    assertThat(deserialize(new byte[] {(byte) 0xff, 0x01})).isEmpty();
    assertThat(deserialize(null)).isEmpty();
  }
}
