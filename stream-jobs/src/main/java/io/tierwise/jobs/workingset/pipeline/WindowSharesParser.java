package io.tierwise.jobs.workingset.pipeline;

import io.tierwise.jobs.ingest.InvalidRecordException;
import io.tierwise.jobs.workingset.estimate.WindowShares;
import io.tierwise.jobs.workingset.estimate.WindowedEstimators;
import io.tierwise.proto.v1.ReferenceBatch;
import io.tierwise.proto.v1.WindowShare;
import io.tierwise.proto.v1.WorkingSetShares;
import java.util.List;

/**
 * Parses and validates a {@code tierwise.v1.ReferenceBatch}'s working set (WorkingSetShares,
 * proto/tierwise/v1/reference_batch.proto) into {@link WindowShares}, as ingest validates it:
 * {@code max_samples >= 1}; the sample's {@code 0 < T <=} the batch's T; the last reference's time
 * that of the batch's last reference when it carries references; per share, a window of {@link
 * WindowedEstimators#SLIDING} (or 0, 'all', at pane start 0), a pane start that is a multiple of the
 * window's hop (its length / {@value WindowedEstimators#PANES}) and not after its first reference,
 * a threshold from the sample's T after the batch to the batch's, in the order (window, pane start,
 * threshold descending) without repeats; reads at most the references; hit distances strictly
 * ascending and at most {@code max_samples}, each with a count of at least 1; 'all''s re-references
 * at most its references (reads: its reads).
 */
final class WindowSharesParser {
  private WindowSharesParser() {}

  /**
   * The batch's shares, or null when it has none.
   *
   * @throws InvalidRecordException naming the first violation, after {@code prefix}
   */
  static WindowShares parse(String prefix, ReferenceBatch batch, long lastReferenceUnixNano)
      throws InvalidRecordException {
    if (!batch.hasWorkingSet()) {
      return null;
    }
    WorkingSetShares in = batch.getWorkingSet();
    String at = prefix + "working_set: ";
    if (in.getMaxSamples() < 1) {
      throw new InvalidRecordException(at + "max_samples is 0");
    }
    long sampleThreshold = in.getSamplingThreshold();
    if (!withinBatch(sampleThreshold, batch)) {
      throw new InvalidRecordException(at + "sampling_threshold " + Long.toUnsignedString(sampleThreshold)
          + " is not in 1..the batch's " + Long.toUnsignedString(batch.getSamplingThreshold()));
    }
    if (batch.getReferencesCount() > 0 && in.getLastReferenceUnixNano() != lastReferenceUnixNano) {
      throw new InvalidRecordException(at + "last_reference_unix_nano " + Long.toUnsignedString(in.getLastReferenceUnixNano())
          + " is not the time of the batch's last reference, " + lastReferenceUnixNano);
    }
    List<WindowShare> shares = in.getSharesList();
    int n = shares.size();
    WindowShares out = new WindowShares();
    out.maxSamples = in.getMaxSamples();
    out.sampleId = in.getSampleId();
    out.samplingThreshold = sampleThreshold;
    out.lastReferenceUnixNano = in.getLastReferenceUnixNano();
    out.windowSeconds = new int[n];
    out.paneStartUnixNano = new long[n];
    out.paneFirstUnixNano = new long[n];
    out.thresholds = new long[n];
    out.references = new long[n];
    out.readReferences = new long[n];
    out.blockRepeats = new long[n];
    out.readRepeats = new long[n];
    out.writeRepeats = new long[n];
    out.hitStart = new int[n + 1];
    out.readHitStart = new int[n + 1];
    int hits = 0;
    int readHits = 0;
    for (WindowShare s : shares) {
      hits += s.getHitDistancesCount();
      readHits += s.getReadHitDistancesCount();
    }
    out.hitDistances = new int[hits];
    out.hitCounts = new long[hits];
    out.readHitDistances = new int[readHits];
    out.readHitCounts = new long[readHits];
    for (int i = 0; i < n; i++) {
      WindowShare s = shares.get(i);
      String share = at + "shares[" + i + "]: ";
      checkPane(s, share);
      long threshold = s.getSamplingThreshold();
      if (!withinBatch(threshold, batch) || Long.compareUnsigned(threshold, sampleThreshold) < 0) {
        throw new InvalidRecordException(share + "sampling_threshold " + Long.toUnsignedString(threshold)
            + " is not in the sample's " + Long.toUnsignedString(sampleThreshold) + "..the batch's "
            + Long.toUnsignedString(batch.getSamplingThreshold()));
      }
      if (i > 0 && !follows(s, shares.get(i - 1))) {
        throw new InvalidRecordException(share + "does not come after the previous share (window ascending, then"
            + " pane start ascending, then sampling_threshold descending)");
      }
      if (Long.compareUnsigned(s.getReadReferences(), s.getReferences()) > 0) {
        throw new InvalidRecordException(share + "read_references " + Long.toUnsignedString(s.getReadReferences())
            + " is above references " + Long.toUnsignedString(s.getReferences()));
      }
      out.windowSeconds[i] = s.getWindowSeconds();
      out.paneStartUnixNano[i] = s.getPaneStartUnixNano();
      out.paneFirstUnixNano[i] = s.getPaneFirstUnixNano();
      out.thresholds[i] = threshold;
      out.references[i] = s.getReferences();
      out.readReferences[i] = s.getReadReferences();
      out.blockRepeats[i] = s.getBlockRepeats();
      out.readRepeats[i] = s.getReadRepeats();
      out.writeRepeats[i] = s.getWriteRepeats();
      long rereferences = distances(share + "hit_", s.getHitDistancesList(), s.getHitCountsList(), out.maxSamples,
          out.hitStart[i], out.hitDistances, out.hitCounts);
      long rereads = distances(share + "read_hit_", s.getReadHitDistancesList(), s.getReadHitCountsList(),
          out.maxSamples, out.readHitStart[i], out.readHitDistances, out.readHitCounts);
      out.hitStart[i + 1] = out.hitStart[i] + s.getHitDistancesCount();
      out.readHitStart[i + 1] = out.readHitStart[i] + s.getReadHitDistancesCount();
      if (s.getWindowSeconds() == 0 && (Long.compareUnsigned(rereferences, s.getReferences()) > 0
          || Long.compareUnsigned(rereads, s.getReadReferences()) > 0)) {
        throw new InvalidRecordException(share + "'all' counts more re-references than references");
      }
    }
    return out;
  }

  private static boolean withinBatch(long threshold, ReferenceBatch batch) {
    return threshold != 0 && Long.compareUnsigned(threshold, batch.getSamplingThreshold()) <= 0;
  }

  /** A known window; 'all' at start 0; a sliding window's pane at a multiple of its hop, not after its first reference. */
  private static void checkPane(WindowShare s, String share) throws InvalidRecordException {
    int seconds = s.getWindowSeconds();
    long start = s.getPaneStartUnixNano();
    if (seconds == 0) {
      if (start != 0) {
        throw new InvalidRecordException(share + "'all' (window_seconds 0) has pane_start_unix_nano " + start);
      }
      return;
    }
    if (WindowedEstimators.SLIDING.stream().noneMatch(w -> w.seconds() == seconds)) {
      throw new InvalidRecordException(share + "window_seconds " + Integer.toUnsignedString(seconds)
          + " is not a window of the service (0, " + WindowedEstimators.SLIDING.stream()
          .map(w -> Long.toString(w.seconds())).reduce((a, b) -> a + ", " + b).orElseThrow() + ")");
    }
    long hop = seconds * 1_000_000_000L / WindowedEstimators.PANES;
    if (start < 0 || start % hop != 0 || Long.compareUnsigned(s.getPaneFirstUnixNano(), start) < 0) {
      throw new InvalidRecordException(share + "pane_start_unix_nano " + Long.toUnsignedString(start)
          + " is not a multiple of the window's " + hop + " ns at or before pane_first_unix_nano "
          + Long.toUnsignedString(s.getPaneFirstUnixNano()));
    }
  }

  /** Whether {@code s} comes after {@code previous}: window, then pane start ascending, then threshold descending. */
  private static boolean follows(WindowShare s, WindowShare previous) {
    int byWindow = Integer.compareUnsigned(s.getWindowSeconds(), previous.getWindowSeconds());
    if (byWindow != 0) {
      return byWindow > 0;
    }
    int byStart = Long.compareUnsigned(s.getPaneStartUnixNano(), previous.getPaneStartUnixNano());
    if (byStart != 0) {
      return byStart > 0;
    }
    return Long.compareUnsigned(s.getSamplingThreshold(), previous.getSamplingThreshold()) < 0;
  }

  /**
   * Copies one list of distances and counts to {@code distances}/{@code counts} from {@code from};
   * returns the sum of the counts.
   */
  private static long distances(String field, List<Integer> in, List<Long> inCounts, int maxSamples, int from,
      int[] distances, long[] counts) throws InvalidRecordException {
    if (in.size() != inCounts.size()) {
      throw new InvalidRecordException(field + "distances has " + in.size() + " entries and " + field + "counts "
          + inCounts.size());
    }
    long sum = 0;
    for (int k = 0; k < in.size(); k++) {
      int d = in.get(k);
      long c = inCounts.get(k);
      if (Integer.compareUnsigned(d, maxSamples) > 0 || (k > 0 && Integer.compareUnsigned(d, in.get(k - 1)) <= 0)) {
        throw new InvalidRecordException(field + "distances[" + k + "] " + Integer.toUnsignedString(d)
            + " is above max_samples or does not ascend");
      }
      if (c < 1) {
        throw new InvalidRecordException(field + "counts[" + k + "] " + Long.toUnsignedString(c) + " is not at least 1");
      }
      distances[from + k] = d;
      counts[from + k] = c;
      sum += c;
    }
    return sum;
  }
}
