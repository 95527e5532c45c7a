package io.tierwise.jobs.workingset;

import com.google.protobuf.InvalidProtocolBufferException;
import io.tierwise.jobs.ingest.InvalidRecordException;
import io.tierwise.jobs.ingest.PayloadParser;
import io.tierwise.proto.v1.BlockReference;
import io.tierwise.proto.v1.IngestRecord;
import io.tierwise.proto.v1.ReferenceBatch;
import java.util.List;

/**
 * Parses and validates the payload of a telemetry.refs.v1 record, a {@code tierwise.v1.ReferenceBatch}
 * (proto/tierwise/v1/reference_batch.proto), into a {@link ReferenceBatchEvent}.
 *
 * <p>Checks: volume_id present; base_time_unix_nano set; SHARDS parameters {@code 0 < T <= P};
 * per reference: direction read or write, {@code H mod P < T} (the block really is in the sample),
 * length_blocks &ge; 1, and time offsets non-decreasing. Any violation rejects the batch with a
 * message naming the field and the reference index.
 */
public final class ReferenceBatchParser implements PayloadParser<ReferenceBatchEvent> {
  private static final long serialVersionUID = 1L;

  @Override
  public List<ReferenceBatchEvent> parse(IngestRecord record) throws InvalidRecordException {
    ReferenceBatch batch;
    try {
      batch = ReferenceBatch.parseFrom(record.getPayload());
    } catch (InvalidProtocolBufferException e) {
      throw new InvalidRecordException("payload is not a tierwise.v1.ReferenceBatch: " + e.getMessage(), e);
    }
    return List.of(parse(record.getTenantId(), batch));
  }

  /**
   * Validates one batch of tenant {@code tenantId}.
   *
   * @throws InvalidRecordException naming the first violation found
   */
  public ReferenceBatchEvent parse(String tenantId, ReferenceBatch batch) throws InvalidRecordException {
    String prefix = "ReferenceBatch " + batch.getBatchId() + " (sequence " + batch.getSequence() + "): ";
    if (batch.getVolumeId().isEmpty()) {
      throw new InvalidRecordException(prefix + "volume_id is empty");
    }
    if (batch.getBaseTimeUnixNano() == 0) {
      throw new InvalidRecordException(prefix + "base_time_unix_nano is not set");
    }
    ShardsFixedRate sampler;
    try {
      sampler = new ShardsFixedRate(batch.getSamplingModulus(), batch.getSamplingThreshold());
    } catch (IllegalArgumentException e) {
      throw new InvalidRecordException(prefix + e.getMessage(), e);
    }
    int n = batch.getReferencesCount();
    ReferenceBatchEvent event = new ReferenceBatchEvent();
    event.tenantId = tenantId;
    event.volumeId = batch.getVolumeId();
    event.hostId = batch.getHostId();
    event.batchId = batch.getBatchId();
    event.sequence = batch.getSequence();
    event.samplingModulus = batch.getSamplingModulus();
    event.samplingThreshold = batch.getSamplingThreshold();
    event.baseTimeUnixNano = batch.getBaseTimeUnixNano();
    event.blockHashes = new long[n];
    event.writes = new boolean[n];
    event.timeOffsetsMicros = new long[n];
    for (int i = 0; i < n; i++) {
      BlockReference ref = batch.getReferences(i);
      String at = prefix + "reference " + i + ": ";
      switch (ref.getDirection()) {
        case DIRECTION_READ -> event.writes[i] = false;
        case DIRECTION_WRITE -> event.writes[i] = true;
        default -> throw new InvalidRecordException(at + "direction " + ref.getDirection() + " is not read or write");
      }
      if (!sampler.isSampled(ref.getBlockHash())) {
        throw new InvalidRecordException(at + "block_hash " + Long.toUnsignedString(ref.getBlockHash())
            + " is not in the sample (H mod P >= T for P=" + Long.toUnsignedString(event.samplingModulus)
            + ", T=" + Long.toUnsignedString(event.samplingThreshold) + ")");
      }
      if (ref.getLengthBlocks() < 1) {
        throw new InvalidRecordException(at + "length_blocks is 0 (must be >= 1)");
      }
      if (ref.getTimeOffsetUs() < 0 || (i > 0 && ref.getTimeOffsetUs() < event.timeOffsetsMicros[i - 1])) {
        throw new InvalidRecordException(at + "time_offset_us " + Long.toUnsignedString(ref.getTimeOffsetUs())
            + " is before the previous reference's (references must be in time order)");
      }
      event.blockHashes[i] = ref.getBlockHash();
      event.timeOffsetsMicros[i] = ref.getTimeOffsetUs();
    }
    return event;
  }
}
