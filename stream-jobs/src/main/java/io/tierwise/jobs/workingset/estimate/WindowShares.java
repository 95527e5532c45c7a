package io.tierwise.jobs.workingset.estimate;

/**
 * What one reference batch adds to its volume's working-set windows, computed by the agent (a
 * Flink POJO; {@code tierwise.v1.WorkingSetShares}, proto/tierwise/v1/reference_batch.proto): the
 * agent runs {@link WindowedEstimators}' sample, LRU stack and panes over the batch's references
 * and ships each pane's share ({@link WindowPane}) per sampling threshold, so that the service
 * adds them up ({@link WindowedEstimators#addShares}) instead of simulating the references.
 *
 * <p>One row per share, in the agent's order: window ascending ('all', window 0, first), pane
 * start ascending, threshold descending. A row's re-references are {@code hitDistances[hitStart[i]
 * .. hitStart[i + 1])} with their counts, and the same for the reads.
 */
public class WindowShares {
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
  /** Per share: the sample's T its references were counted at (unsigned). */
  public long[] thresholds = new long[0];
  /** Per share: references made while its pane was the newest, and the reads among them. */
  public long[] references = new long[0];
  public long[] readReferences = new long[0];
  /** Per share: repeats of a block, of a read block, of a written block (evictions included). */
  public long[] blockRepeats = new long[0];
  public long[] readRepeats = new long[0];
  public long[] writeRepeats = new long[0];
  /** Per share (and one more): where its re-references start in {@link #hitDistances}. */
  public int[] hitStart = {0};
  /** Stack distances among the sample's blocks, ascending within a share, with their counts. */
  public int[] hitDistances = new int[0];
  public long[] hitCounts = new long[0];
  /** The same for the reads. */
  public int[] readHitStart = {0};
  public int[] readHitDistances = new int[0];
  public long[] readHitCounts = new long[0];

  /** For Flink. */
  public WindowShares() {}

  /** Number of shares. */
  public int size() {
    return windowSeconds.length;
  }
}
