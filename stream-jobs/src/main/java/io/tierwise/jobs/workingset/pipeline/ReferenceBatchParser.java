package io.tierwise.jobs.workingset.pipeline;

import com.google.protobuf.InvalidProtocolBufferException;
import io.tierwise.jobs.ingest.InvalidRecordException;
import io.tierwise.jobs.ingest.PayloadParser;
import io.tierwise.jobs.workingset.estimate.DistinctBlockSketch;
import io.tierwise.jobs.workingset.estimate.ShardsFixedRate;
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
 * length_blocks &ge; 1, and time offsets non-decreasing. Stream totals come together or not at
 * all: with {@code distinct_blocks_hll_precision} p in 4..18, {@code P} divides {@code 2^24} (so
 * sampling and sketch use different bits of H), {@code considered_references} &ge; the number of
 * references, and the register updates are valid for p ({@link DistinctBlockSketch#checkUpdate})
 * with ascending indices; with p = 0, no considered_references and no updates. Any violation
 * rejects the batch with a message naming the field and the reference index. The agent's miniature
 * simulations: {@link MiniatureBatchParser}; its working-set windows' shares: {@link WindowSharesParser};
 * the references' summary in their place: {@link ReferenceSummaryParser}.
 */
public final class ReferenceBatchParser implements PayloadParser<ReferenceBatchEvent> {
  /** Largest LRU anchor a batch may name, 4 KiB blocks (2^24 = 64 GiB; the agent sends 1,024 and its LruAnchor takes at most 65,535). */
  static final int MAX_LRU_ANCHOR_BLOCKS = 1 << 24;

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
    event.clusterId = batch.getClusterId().isEmpty() ? null : batch.getClusterId();
    event.batchId = batch.getBatchId();
    event.sequence = batch.getSequence();
    event.samplingModulus = batch.getSamplingModulus();
    event.samplingThreshold = batch.getSamplingThreshold();
    event.baseTimeUnixNano = batch.getBaseTimeUnixNano();
    event.blockHashes = new long[n];
    event.writes = new boolean[n];
    event.timeOffsetsMicros = new long[n];
    event.lengthBlocks = new int[n];
    for (int i = 0; i < n; i++) {
      BlockReference ref = batch.getReferences(i);
      switch (ref.getDirection()) {
        case DIRECTION_READ -> event.writes[i] = false;
        case DIRECTION_WRITE -> event.writes[i] = true;
        default -> throw new InvalidRecordException(at(prefix, i) + "direction " + ref.getDirection() + " is not read or write");
      }
      if (!sampler.isSampled(ref.getBlockHash())) {
        throw new InvalidRecordException(at(prefix, i) + "block_hash " + Long.toUnsignedString(ref.getBlockHash())
            + " is not in the sample (H mod P >= T for P=" + Long.toUnsignedString(event.samplingModulus)
            + ", T=" + Long.toUnsignedString(event.samplingThreshold) + ")");
      }
      if (ref.getLengthBlocks() < 1) {
        throw new InvalidRecordException(at(prefix, i) + "length_blocks is 0 (must be >= 1)");
      }
      if (ref.getTimeOffsetUs() < 0 || (i > 0 && ref.getTimeOffsetUs() < event.timeOffsetsMicros[i - 1])) {
        throw new InvalidRecordException(at(prefix, i) + "time_offset_us " + Long.toUnsignedString(ref.getTimeOffsetUs())
            + " is before the previous reference's (references must be in time order)");
      }
      event.blockHashes[i] = ref.getBlockHash();
      event.lengthBlocks[i] = ref.getLengthBlocks();
      event.timeOffsetsMicros[i] = ref.getTimeOffsetUs();
    }
    parseStreamTotals(prefix, batch, event);
    event.miniature = MiniatureBatchParser.parse(prefix, batch, false);
    event.hostTier = MiniatureBatchParser.parse(prefix, batch, true);
    event.summary = ReferenceSummaryParser.parse(prefix, batch);
    long last = event.lastReferenceUnixNano();
    event.workingSet = WindowSharesParser.parse(prefix, batch, last);
    event.hostTierWorkingSet = WindowSharesParser.parseHostTier(prefix, batch, last);
    return event;
  }

  /** The start of reference {@code i}'s error message (built only when it is wrong). */
  private static String at(String prefix, int i) {
    return prefix + "reference " + i + ": ";
  }

  private static void parseStreamTotals(String prefix, ReferenceBatch batch, ReferenceBatchEvent event)
      throws InvalidRecordException {
    int precision = batch.getDistinctBlocksHllPrecision();
    long considered = batch.getConsideredReferences();
    int updates = batch.getDistinctBlocksHllUpdatesCount();
    if (precision == 0) {
      if (considered != 0 || updates != 0 || batch.getLruAnchorBlocks() != 0 || batch.getLruAnchorHits() != 0) {
        throw new InvalidRecordException(prefix + "considered_references, distinct_blocks_hll_updates and the LRU"
            + " anchor need distinct_blocks_hll_precision (the stream totals come together)");
      }
      return;
    }
    try {
      DistinctBlockSketch.checkPrecision(precision);
    } catch (IllegalArgumentException e) {
      throw new InvalidRecordException(prefix + "distinct_blocks_hll_precision: " + e.getMessage(), e);
    }
    if (Long.remainderUnsigned(1L << DistinctBlockSketch.SAMPLING_BITS, batch.getSamplingModulus()) != 0) {
      throw new InvalidRecordException(prefix + "sampling_modulus " + Long.toUnsignedString(batch.getSamplingModulus())
          + " does not divide 2^" + DistinctBlockSketch.SAMPLING_BITS + ", which the distinct-block sketch needs");
    }
    long references = batch.hasReferenceSummary() ? batch.getReferenceSummary().getReferences() : batch.getReferencesCount();
    if (Long.compareUnsigned(considered, references) < 0) {
      throw new InvalidRecordException(prefix + "considered_references " + Long.toUnsignedString(considered)
          + " is below the " + Long.toUnsignedString(references) + " references of the batch");
    }
    if (batch.getLruAnchorBlocks() == 0 && batch.getLruAnchorHits() != 0) {
      throw new InvalidRecordException(prefix + "lru_anchor_hits " + Long.toUnsignedString(batch.getLruAnchorHits())
          + " without lru_anchor_blocks");
    }
    if (Long.compareUnsigned(batch.getLruAnchorHits(), considered) > 0) {
      throw new InvalidRecordException(prefix + "lru_anchor_hits " + Long.toUnsignedString(batch.getLruAnchorHits())
          + " is above considered_references " + Long.toUnsignedString(considered));
    }
    if (batch.getLruAnchorBlocks() < 0 || batch.getLruAnchorBlocks() > MAX_LRU_ANCHOR_BLOCKS) {
      throw new InvalidRecordException(prefix + "lru_anchor_blocks " + Integer.toUnsignedString(batch.getLruAnchorBlocks())
          + " is above " + MAX_LRU_ANCHOR_BLOCKS);
    }
    event.lruAnchorHits = batch.getLruAnchorHits();
    event.lruAnchorBlocks = batch.getLruAnchorBlocks();
    event.consideredReferences = considered;
    event.distinctBlocksHllPrecision = precision;
    event.distinctBlocksHllUpdates = new int[updates];
    for (int i = 0; i < updates; i++) {
      int update = batch.getDistinctBlocksHllUpdates(i);
      try {
        DistinctBlockSketch.checkUpdate(update, precision);
      } catch (IllegalArgumentException e) {
        throw new InvalidRecordException(prefix + "distinct_blocks_hll_updates[" + i + "]: " + e.getMessage(), e);
      }
      if (i > 0 && (update >>> 8) <= (event.distinctBlocksHllUpdates[i - 1] >>> 8)) {
        throw new InvalidRecordException(prefix + "distinct_blocks_hll_updates[" + i + "]: register index "
            + (update >>> 8) + " does not ascend");
      }
      event.distinctBlocksHllUpdates[i] = update;
    }
  }
}
