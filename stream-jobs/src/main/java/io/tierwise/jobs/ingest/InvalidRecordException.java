package io.tierwise.jobs.ingest;

/**
 * A Kafka record whose content breaks the ingest contract (proto/tierwise/v1, proto/METRICS.md).
 * The message names the problem; the record is dropped and logged, nothing else is lost.
 */
public final class InvalidRecordException extends Exception {
  private static final long serialVersionUID = 1L;

  /** @param message what is wrong, naming the field or metric */
  public InvalidRecordException(String message) {
    super(message);
  }

  /** @param message what is wrong; @param cause the parse error */
  public InvalidRecordException(String message, Throwable cause) {
    super(message, cause);
  }
}
