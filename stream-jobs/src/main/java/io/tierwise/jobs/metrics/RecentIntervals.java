package io.tierwise.jobs.metrics;

/**
 * The latest interval ids of one volume ({@link IntervalMetrics#recordId}), at most a fixed number,
 * the oldest forgotten first: a ring of longs (a Flink POJO, {@link DuplicateIntervalFilter}'s
 * state). A lookup scans the ring: a few hundred longs, cheaper than a hash set's objects.
 */
public class RecentIntervals {
  /** The ring; its length is the most ids kept. */
  public long[] ids;
  /** Slot the next id goes to. */
  public int next;
  /** Slots in use (up to {@code ids.length}). */
  public int count;

  /** For Flink. */
  public RecentIntervals() {}

  /** An empty ring of {@code capacity} ids. */
  public RecentIntervals(int capacity) {
    ids = new long[capacity];
  }

  /**
   * Remembers {@code id} unless it is among the ids kept.
   *
   * @return true when it was new (and is now kept), false when it was kept already
   */
  public boolean add(long id) {
    for (int i = 0; i < count; i++) {
      if (ids[i] == id) {
        return false;
      }
    }
    ids[next] = id;
    next = (next + 1) % ids.length;
    count = Math.min(count + 1, ids.length);
    return true;
  }
}
