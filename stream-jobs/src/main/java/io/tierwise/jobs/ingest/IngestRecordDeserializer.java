package io.tierwise.jobs.ingest;

import com.google.protobuf.InvalidProtocolBufferException;
import io.tierwise.proto.v1.IngestRecord;
import java.util.regex.Pattern;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka value deserializer for the telemetry topics: decodes the {@code tierwise.v1.IngestRecord}
 * value, checks its tenant_id, and hands it to a {@link PayloadParser}. A record that breaks the
 * contract is logged at WARN with its topic, partition, offset, batch id and the reason, and
 * skipped; the stream goes on.
 *
 * @param <T> the event type
 */
public final class IngestRecordDeserializer<T> implements KafkaRecordDeserializationSchema<T> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(IngestRecordDeserializer.class);
  private static final Pattern UUID_TEXT =
      Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  private final PayloadParser<T> parser;
  private final TypeInformation<T> producedType;

  /**
   * @param parser payload parser for the topic
   * @param producedType Flink type of the events
   */
  public IngestRecordDeserializer(PayloadParser<T> parser, TypeInformation<T> producedType) {
    this.parser = parser;
    this.producedType = producedType;
  }

  @Override
  public void deserialize(ConsumerRecord<byte[], byte[]> message, Collector<T> out) {
    String where = message.topic() + "/" + message.partition() + "@" + message.offset();
    if (message.value() == null) {
      LOG.warn("rejected record {}: empty value (expected a tierwise.v1.IngestRecord)", where);
      return;
    }
    IngestRecord record;
    try {
      record = IngestRecord.parseFrom(message.value());
    } catch (InvalidProtocolBufferException e) {
      LOG.warn("rejected record {}: value is not a tierwise.v1.IngestRecord: {}", where, e.getMessage());
      return;
    }
    try {
      checkTenant(record.getTenantId());
      parser.parse(record).forEach(out::collect);
    } catch (InvalidRecordException e) {
      LOG.warn("rejected record {} (tenant {}, batch {}): {}", where, record.getTenantId(),
          record.getBatchId(), e.getMessage());
    }
  }

  /**
   * @throws InvalidRecordException when the tenant id is not a UUID
   */
  static void checkTenant(String tenantId) throws InvalidRecordException {
    if (!UUID_TEXT.matcher(tenantId).matches()) {
      throw new InvalidRecordException("tenant_id '" + tenantId + "' is not a UUID");
    }
  }

  @Override
  public TypeInformation<T> getProducedType() {
    return producedType;
  }
}
