package io.tierwise.jobs.ingest;

import com.google.protobuf.InvalidProtocolBufferException;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.tierwise.jobs.telemetry.JobTelemetry;
import io.tierwise.jobs.telemetry.KafkaTraceContext;
import io.tierwise.jobs.telemetry.Traced;
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
 * <p>Each record is consumed inside a CONSUMER span "&lt;topic&gt; process" (OpenTelemetry messaging
 * semantic conventions), the child of the W3C trace context ingest put in the record's headers,
 * so the trace of an agent's batch continues into the jobs; {@link Traced} events remember that
 * span for the database write they lead to.
 *
 * @param <T> the event type
 */
public final class IngestRecordDeserializer<T> implements KafkaRecordDeserializationSchema<T> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(IngestRecordDeserializer.class);
  private static final Pattern UUID_TEXT =
      Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  private static final AttributeKey<String> TENANT = AttributeKey.stringKey("tierwise.tenant.id");
  private static final AttributeKey<String> BATCH = AttributeKey.stringKey("tierwise.batch.id");

  private final PayloadParser<T> parser;
  private final TypeInformation<T> producedType;
  private final JobTelemetry telemetry;
  private transient Tracer tracer;

  /**
   * @param parser payload parser for the topic
   * @param producedType Flink type of the events
   * @param telemetry where the consume spans go
   */
  public IngestRecordDeserializer(PayloadParser<T> parser, TypeInformation<T> producedType, JobTelemetry telemetry) {
    this.parser = parser;
    this.producedType = producedType;
    this.telemetry = telemetry;
  }

  /** Without telemetry (tests of the parsing). */
  public IngestRecordDeserializer(PayloadParser<T> parser, TypeInformation<T> producedType) {
    this(parser, producedType, JobTelemetry.off());
  }

  @Override
  public void deserialize(ConsumerRecord<byte[], byte[]> message, Collector<T> out) {
    if (tracer == null) {
      tracer = telemetry.tracer();
    }
    Span span = tracer.spanBuilder(message.topic() + " process")
        .setSpanKind(SpanKind.CONSUMER)
        .setParent(KafkaTraceContext.extract(message.headers()))
        .setAttribute("messaging.system", "kafka")
        .setAttribute("messaging.operation.type", "process")
        .setAttribute("messaging.destination.name", message.topic())
        .setAttribute("messaging.destination.partition.id", String.valueOf(message.partition()))
        .setAttribute("messaging.kafka.offset", message.offset())
        .startSpan();
    try (Scope ignored = span.makeCurrent()) {
      String rejected = consume(message, span, out);
      if (rejected != null) {
        span.setStatus(StatusCode.ERROR, rejected);
      }
    } finally {
      span.end();
    }
  }

  /** Decodes and parses one record; returns why it was rejected, or null. */
  private String consume(ConsumerRecord<byte[], byte[]> message, Span span, Collector<T> out) {
    String where = message.topic() + "/" + message.partition() + "@" + message.offset();
    if (message.value() == null) {
      LOG.warn("rejected record {}: empty value (expected a tierwise.v1.IngestRecord)", where);
      return "empty value";
    }
    IngestRecord record;
    try {
      record = IngestRecord.parseFrom(message.value());
    } catch (InvalidProtocolBufferException e) {
      LOG.warn("rejected record {}: value is not a tierwise.v1.IngestRecord: {}", where, e.getMessage());
      return "not a tierwise.v1.IngestRecord";
    }
    span.setAttribute(TENANT, record.getTenantId());
    span.setAttribute(BATCH, record.getBatchId());
    try {
      checkTenant(record.getTenantId());
      String traceparent = KafkaTraceContext.traceparent(span);
      for (T event : parser.parse(record)) {
        if (event instanceof Traced traced) {
          traced.traceparent(traceparent);
        }
        out.collect(event);
      }
      return null;
    } catch (InvalidRecordException e) {
      LOG.warn("rejected record {} (tenant {}, batch {}): {}", where, record.getTenantId(),
          record.getBatchId(), e.getMessage());
      return e.getMessage();
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
