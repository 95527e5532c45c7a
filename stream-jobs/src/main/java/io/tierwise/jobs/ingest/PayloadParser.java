package io.tierwise.jobs.ingest;

import io.tierwise.proto.v1.IngestRecord;
import java.io.Serializable;
import java.util.List;

/**
 * Turns one {@link IngestRecord} (tenant stamped by ingest, payload per topic) into domain events.
 *
 * @param <T> the event type
 */
@FunctionalInterface
public interface PayloadParser<T> extends Serializable {
  /**
   * @param record a decoded IngestRecord whose tenant_id is a UUID (checked by the caller)
   * @return the events in the record (may be empty)
   * @throws InvalidRecordException when the payload breaks the contract
   */
  List<T> parse(IngestRecord record) throws InvalidRecordException;
}
