package io.tierwise.jobs.workingset.estimate;

/**
 * What one reference batch adds to its volume's working-set windows, computed by the agent (a
 * Flink POJO; {@code tierwise.v1.WorkingSetShares}, proto/tierwise/v1/reference_batch.proto): the
 * agent runs {@link WindowedEstimators}' sample, LRU stack and panes over the batch's references
 * and ships each pane's share ({@link WindowPane}), so that the service adds them up ({@link
 * WindowedEstimators#addShares}) instead of simulating the references.
 *
 * <p>One row per share, in the agent's order: window ascending ('all', window 0, first), then pane
 * start ascending. A row's re-references are {@code hitBuckets[hitStart[i] .. hitStart[i + 1])}
 * ({@link DistanceHistogram}'s buckets) with their weights, and the same for the reads.
 */
public class WindowShares {
  /** The largest bucket of a scaled stack distance ({@link DistanceHistogram}'s layout). */
  public static final int MAX_DISTANCE_BUCKET = DistanceHistogram.MAX_BUCKET;

  /** s_max of the agent's sample: the shares apply only to a sample of that size. */
  public int maxSamples;
  /** The agent's sample's id: the shares of one sample add up; another id is a new sample. */
  public long sampleId;
  /** The sample's threshold T after the batch (unsigned). */
  public long samplingThreshold;
  /** The batch's last reference, Unix epoch nanoseconds (0: none). */
  public long lastReferenceUnixNano;
  /** Per share: 0 for 'all', else the sliding window's length, seconds. */
  public int[] windowSeconds = new int[0];
  /** Per share: the pane's start, Unix epoch nanoseconds (0 for 'all'). */
  public long[] paneStartUnixNano = new long[0];
  /** Per share: the time of the reference that started the pane, Unix epoch nanoseconds. */
  public long[] paneFirstUnixNano = new long[0];
  /** Per share: references made while its pane was the newest, and the reads among them. */
  public long[] references = new long[0];
  public long[] readReferences = new long[0];
  /** Per share: the sums of 1 / R over them and over the reads; 'all''s over first references. */
  public double[] weight = new double[0];
  public double[] readWeight = new double[0];
  public double[] firstWeight = new double[0];
  /** Per share: repeats of a block, of a read block, of a written block (evictions included). */
  public long[] blockRepeats = new long[0];
  public long[] readRepeats = new long[0];
  public long[] writeRepeats = new long[0];
  /** Per share (and one more): where its re-references start in {@link #hitBuckets}. */
  public int[] hitStart = {0};
  /** Buckets of scaled stack distances, ascending within a share, with their weights. */
  public int[] hitBuckets = new int[0];
  public double[] hitWeights = new double[0];
  /** The same for the reads. */
  public int[] readHitStart = {0};
  public int[] readHitBuckets = new int[0];
  public double[] readHitWeights = new double[0];

  /** For Flink. */
  public WindowShares() {}

  /** Number of shares. */
  public int size() {
    return windowSeconds.length;
  }
}
