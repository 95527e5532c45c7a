package io.tierwise.jobs.workingset.pipeline;

import io.tierwise.jobs.ingest.InvalidRecordException;
import io.tierwise.jobs.workingset.estimate.WindowShares;
import io.tierwise.jobs.workingset.estimate.WindowedEstimators;
import io.tierwise.proto.v1.ReferenceBatch;
import io.tierwise.proto.v1.WindowShare;
import io.tierwise.proto.v1.WorkingSetShares;
import java.util.List;

/**
 * Parses and validates a {@code tierwise.v1.ReferenceBatch}'s working sets (WorkingSetShares,
 * proto/tierwise/v1/reference_batch.proto: the volume's and its host's shared tier's) into {@link
 * WindowShares}, as ingest validates them: {@code max_samples >= 1}; the sample's {@code 0 < T <=}
 * the batch's T; the last reference's time that of the batch's last reference when it has
 * references, carried or summarised (the host's tier's: at or after it, on the tier's clock); per share, a window of {@link
 * WindowedEstimators#SLIDING} (or 0, 'all', at pane start 0), a pane start that is a multiple of the
 * window's hop (its length / {@value WindowedEstimators#PANES}) and not after its first reference,
 * in the order (window, pane start) without repeats; reads at most the references; weights finite
 * and non-negative, the reads' at most the references' (and a pane's first weight 0); hit buckets
 * strictly ascending up to {@link WindowShares#MAX_DISTANCE_BUCKET}, each with a positive finite
 * weight.
 */
final class WindowSharesParser {
  private WindowSharesParser() {}

  /**
   * The batch's shares of the volume's own windows ({@code working_set}), or null when it has none.
   *
   * @throws InvalidRecordException naming the first violation, after {@code prefix}
   */
  static WindowShares parse(String prefix, ReferenceBatch batch, long lastReferenceUnixNano)
      throws InvalidRecordException {
    return batch.hasWorkingSet()
        ? parse(prefix + "working_set: ", batch, batch.getWorkingSet(), lastReferenceUnixNano, false)
        : null;
  }

  /**
   * The batch's shares of its host's shared tier's windows ({@code host_tier_working_set}), or null
   * when it has none.
   *
   * @throws InvalidRecordException naming the first violation, after {@code prefix}
   */
  static WindowShares parseHostTier(String prefix, ReferenceBatch batch, long lastReferenceUnixNano)
      throws InvalidRecordException {
    return batch.hasHostTierWorkingSet()
        ? parse(prefix + "host_tier_working_set: ", batch, batch.getHostTierWorkingSet(), lastReferenceUnixNano, true)
        : null;
  }

  /** {@code in}, checked; {@code tierClock}: its last reference may be after the batch's. */
  private static WindowShares parse(String at, ReferenceBatch batch, WorkingSetShares in, long lastReferenceUnixNano,
      boolean tierClock) throws InvalidRecordException {
    if (in.getMaxSamples() < 1) {
      throw new InvalidRecordException(at + "max_samples is 0");
    }
    long sampleThreshold = in.getSamplingThreshold();
    if (sampleThreshold == 0 || Long.compareUnsigned(sampleThreshold, batch.getSamplingThreshold()) > 0) {
      throw new InvalidRecordException(at + "sampling_threshold " + Long.toUnsignedString(sampleThreshold)
          + " is not in 1..the batch's " + Long.toUnsignedString(batch.getSamplingThreshold()));
    }
    long last = in.getLastReferenceUnixNano();
    if ((batch.getReferencesCount() > 0 || batch.hasReferenceSummary())
        && (tierClock ? Long.compareUnsigned(last, lastReferenceUnixNano) < 0 : last != lastReferenceUnixNano)) {
      throw new InvalidRecordException(at + "last_reference_unix_nano " + Long.toUnsignedString(last)
          + (tierClock ? " is before" : " is not") + " the time of the batch's last reference, " + lastReferenceUnixNano);
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
    out.references = new long[n];
    out.readReferences = new long[n];
    out.weight = new double[n];
    out.readWeight = new double[n];
    out.firstWeight = new double[n];
    out.blockRepeats = new long[n];
    out.readRepeats = new long[n];
    out.writeRepeats = new long[n];
    out.hitStart = new int[n + 1];
    out.readHitStart = new int[n + 1];
    int hits = 0;
    int readHits = 0;
    for (WindowShare s : shares) {
      hits += s.getHitBucketsCount();
      readHits += s.getReadHitBucketsCount();
    }
    out.hitBuckets = new int[hits];
    out.hitWeights = new double[hits];
    out.readHitBuckets = new int[readHits];
    out.readHitWeights = new double[readHits];
    for (int i = 0; i < n; i++) {
      WindowShare s = shares.get(i);
      String share = at + "shares[" + i + "]: ";
      checkPane(s, share);
      if (i > 0 && !follows(s, shares.get(i - 1))) {
        throw new InvalidRecordException(share + "does not come after the previous share (window ascending, then"
            + " pane start ascending)");
      }
      if (Long.compareUnsigned(s.getReadReferences(), s.getReferences()) > 0) {
        throw new InvalidRecordException(share + "read_references " + Long.toUnsignedString(s.getReadReferences())
            + " is above references " + Long.toUnsignedString(s.getReferences()));
      }
      checkWeights(s, share);
      out.windowSeconds[i] = s.getWindowSeconds();
      out.paneStartUnixNano[i] = s.getPaneStartUnixNano();
      out.paneFirstUnixNano[i] = s.getPaneFirstUnixNano();
      out.references[i] = s.getReferences();
      out.readReferences[i] = s.getReadReferences();
      out.weight[i] = s.getWeight();
      out.readWeight[i] = s.getReadWeight();
      out.firstWeight[i] = s.getFirstWeight();
      out.blockRepeats[i] = s.getBlockRepeats();
      out.readRepeats[i] = s.getReadRepeats();
      out.writeRepeats[i] = s.getWriteRepeats();
      buckets(share + "hit_", s.getHitBucketsList(), s.getHitWeightsList(), out.hitStart[i], out.hitBuckets,
          out.hitWeights);
      buckets(share + "read_hit_", s.getReadHitBucketsList(), s.getReadHitWeightsList(), out.readHitStart[i],
          out.readHitBuckets, out.readHitWeights);
      out.hitStart[i + 1] = out.hitStart[i] + s.getHitBucketsCount();
      out.readHitStart[i + 1] = out.readHitStart[i] + s.getReadHitBucketsCount();
    }
    return out;
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
    if (s.getFirstWeight() != 0) {
      throw new InvalidRecordException(share + "first_weight " + s.getFirstWeight() + " on a sliding window's pane");
    }
  }

  /** Finite and non-negative; the reads' at most the references' (both sums of the same 1 / R terms). */
  private static void checkWeights(WindowShare s, String share) throws InvalidRecordException {
    for (double w : new double[] {s.getWeight(), s.getReadWeight(), s.getFirstWeight()}) {
      if (!(w >= 0) || Double.isInfinite(w)) {
        throw new InvalidRecordException(share + "weight " + w + " is not a finite non-negative number");
      }
    }
    if (s.getReadWeight() > s.getWeight() || s.getFirstWeight() > s.getWeight()) {
      throw new InvalidRecordException(share + "read_weight " + s.getReadWeight() + " or first_weight "
          + s.getFirstWeight() + " is above weight " + s.getWeight());
    }
  }

  /** Whether {@code s} comes after {@code previous}: window, then pane start ascending. */
  private static boolean follows(WindowShare s, WindowShare previous) {
    int byWindow = Integer.compareUnsigned(s.getWindowSeconds(), previous.getWindowSeconds());
    return byWindow != 0 ? byWindow > 0 : Long.compareUnsigned(s.getPaneStartUnixNano(), previous.getPaneStartUnixNano()) > 0;
  }

  /** Copies one list of buckets and weights to {@code buckets}/{@code weights} from {@code from}. */
  private static void buckets(String field, List<Integer> in, List<Double> inWeights, int from, int[] buckets,
      double[] weights) throws InvalidRecordException {
    if (in.size() != inWeights.size()) {
      throw new InvalidRecordException(field + "buckets has " + in.size() + " entries and " + field + "weights "
          + inWeights.size());
    }
    for (int k = 0; k < in.size(); k++) {
      int b = in.get(k);
      double w = inWeights.get(k);
      if (Integer.compareUnsigned(b, WindowShares.MAX_DISTANCE_BUCKET) > 0
          || (k > 0 && Integer.compareUnsigned(b, in.get(k - 1)) <= 0)) {
        throw new InvalidRecordException(field + "buckets[" + k + "] " + Integer.toUnsignedString(b)
            + " is above " + WindowShares.MAX_DISTANCE_BUCKET + " or does not ascend");
      }
      if (!(w > 0) || Double.isInfinite(w)) {
        throw new InvalidRecordException(field + "weights[" + k + "] " + w + " is not a positive finite number");
      }
      buckets[from + k] = b;
      weights[from + k] = w;
    }
  }
}
