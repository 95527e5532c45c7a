package io.tierwise.jobs.workingset.pipeline;

import io.tierwise.jobs.ingest.InvalidRecordException;
import io.tierwise.proto.v1.IoLengthCount;
import io.tierwise.proto.v1.ReferenceBatch;

/**
 * Parses and validates a {@code tierwise.v1.ReferenceBatch}'s reference summary
 * (ReferenceSummary, proto/tierwise/v1/reference_batch.proto) into a {@link ReferenceSummary}, as
 * ingest validates it: none beside references; the batch's working set and miniature policies
 * with it (the agent ran what the service would run over the references); references &ge; 1;
 * base time &le; first &le; last reference time; per (direction, I/O length) pair, read or write,
 * a length &ge; 1 and references &ge; 1, by direction (reads first) then length ascending without
 * repeats, adding up to the references.
 */
final class ReferenceSummaryParser {
  private ReferenceSummaryParser() {}

  /**
   * The batch's summary, or null when it has none.
   *
   * @throws InvalidRecordException naming the first violation, after {@code prefix}
   */
  static ReferenceSummary parse(String prefix, ReferenceBatch batch) throws InvalidRecordException {
    if (!batch.hasReferenceSummary()) {
      return null;
    }
    String at = prefix + "reference_summary: ";
    if (batch.getReferencesCount() > 0) {
      throw new InvalidRecordException(at + "beside references (a batch carries one or the other)");
    }
    if (!batch.hasWorkingSet() || batch.getMiniaturePoliciesCount() == 0) {
      throw new InvalidRecordException(at + "without working_set and miniature_policies (the service runs nothing"
          + " over summarised references)");
    }
    io.tierwise.proto.v1.ReferenceSummary in = batch.getReferenceSummary();
    ReferenceSummary out = new ReferenceSummary();
    out.references = in.getReferences();
    out.firstUnixNano = in.getFirstReferenceUnixNano();
    out.lastUnixNano = in.getLastReferenceUnixNano();
    if (out.references < 1) {
      throw new InvalidRecordException(at + "references must be >= 1, got " + Long.toUnsignedString(out.references));
    }
    if (Long.compareUnsigned(out.firstUnixNano, batch.getBaseTimeUnixNano()) < 0
        || Long.compareUnsigned(out.lastUnixNano, out.firstUnixNano) < 0) {
      throw new InvalidRecordException(at + "base time " + Long.toUnsignedString(batch.getBaseTimeUnixNano())
          + " <= first " + Long.toUnsignedString(out.firstUnixNano) + " <= last reference time "
          + Long.toUnsignedString(out.lastUnixNano) + " does not hold");
    }
    int n = in.getIoLengthsCount();
    out.writes = new boolean[n];
    out.lengthBlocks = new int[n];
    out.counts = new long[n];
    long sum = 0;
    for (int i = 0; i < n; i++) {
      IoLengthCount l = in.getIoLengths(i);
      String pair = at + "io_lengths[" + i + "]: ";
      switch (l.getDirection()) {
        case DIRECTION_READ -> out.writes[i] = false;
        case DIRECTION_WRITE -> out.writes[i] = true;
        default -> throw new InvalidRecordException(pair + "direction " + l.getDirection() + " is not read or write");
      }
      out.lengthBlocks[i] = l.getLengthBlocks();
      out.counts[i] = l.getReferences();
      if (out.lengthBlocks[i] < 1 || out.counts[i] < 1) {
        throw new InvalidRecordException(pair + "length_blocks and references must be >= 1");
      }
      if (i > 0 && !(out.writes[i] && !out.writes[i - 1]
          || out.writes[i] == out.writes[i - 1] && out.lengthBlocks[i] > out.lengthBlocks[i - 1])) {
        throw new InvalidRecordException(pair + "does not come after the previous one (reads first, then by length)");
      }
      sum += out.counts[i];
    }
    if (sum != out.references) {
      throw new InvalidRecordException(at + "io_lengths add up to " + sum + " references, not "
          + Long.toUnsignedString(out.references));
    }
    return out;
  }
}
