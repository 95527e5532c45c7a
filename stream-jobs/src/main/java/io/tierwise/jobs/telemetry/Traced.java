package io.tierwise.jobs.telemetry;

/**
 * An event that remembers the span that consumed its Kafka record, as a W3C {@code traceparent}
 * string, so the database write of what it becomes can link to that span.
 */
public interface Traced {
  /** @param traceparent the consume span's traceparent, or null when tracing is off */
  void traceparent(String traceparent);
}
