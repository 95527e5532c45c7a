package io.tierwise.jobs.telemetry;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/) between the jobs' operators: read
 * from a Kafka record's headers ({@code traceparent}, {@code tracestate}, as ingest writes them),
 * and carried on events as a {@code traceparent} string, so a later operator can link to the span
 * that consumed the record.
 */
public final class KafkaTraceContext {
  private static final W3CTraceContextPropagator W3C = W3CTraceContextPropagator.getInstance();

  private static final TextMapGetter<Headers> HEADERS = new TextMapGetter<>() {
    @Override
    public Iterable<String> keys(Headers headers) {
      return StreamSupport.stream(headers.spliterator(), false).map(Header::key).toList();
    }

    @Override
    public String get(Headers headers, String key) {
      Header h = headers == null ? null : headers.lastHeader(key);
      return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
  };

  private static final TextMapGetter<Map<String, String>> MAP = new TextMapGetter<>() {
    @Override
    public Iterable<String> keys(Map<String, String> carrier) {
      return carrier.keySet();
    }

    @Override
    public String get(Map<String, String> carrier, String key) {
      return carrier == null ? null : carrier.get(key);
    }
  };

  private KafkaTraceContext() {}

  /** The remote parent context of a record's headers; the root context when they carry none. */
  public static Context extract(Headers headers) {
    return W3C.extract(Context.root(), headers, HEADERS);
  }

  /** The {@code traceparent} value of {@code span} (version 00), or null when it is invalid (no-op). */
  public static String traceparent(Span span) {
    if (!span.getSpanContext().isValid()) {
      return null;
    }
    Map<String, String> carrier = new HashMap<>();
    W3C.inject(Context.root().with(span), carrier, Map::put);
    return carrier.get("traceparent");
  }

  /** Span contexts of {@code traceparents} (invalid or null values skipped), for span links. */
  public static List<SpanContext> spanContexts(List<String> traceparents) {
    return traceparents.stream()
        .filter(t -> t != null)
        .map(t -> Span.fromContext(W3C.extract(Context.root(), Map.of("traceparent", t), MAP)).getSpanContext())
        .filter(SpanContext::isValid)
        .toList();
  }
}
