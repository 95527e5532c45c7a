package io.tierwise.jobs.metrics;

/**
 * Addition of the rollups' counters (I/Os, bytes, histogram counts; never negative: the parser
 * refuses negative values). A sum that would pass {@link Long#MAX_VALUE} stays there instead of
 * wrapping to a negative count (issue 16 finding 8: two data points of 2^63 - 1 read I/Os were
 * read back as -2). Every addition of counters goes through it, the parser's within a batch as
 * well as the rollups' merges: the per-point limit of proto/METRICS.md "Limits" bounds a point,
 * not how many points a batch or a fleet-wide window adds up.
 */
public final class SaturatingCounters {
  private SaturatingCounters() {}

  /** {@code a + b} for {@code a, b >= 0}, or {@link Long#MAX_VALUE} when that would overflow. */
  public static long add(long a, long b) {
    long sum = a + b;
    return sum < 0 ? Long.MAX_VALUE : sum;
  }

  /** {@code counts[i] += v}, saturating. */
  public static void addAt(long[] counts, int i, long v) {
    counts[i] = add(counts[i], v);
  }

  /** Adds {@code from[i]} into {@code into[i]} for every index of {@code from}, saturating. */
  public static void addInto(long[] into, long[] from) {
    for (int i = 0; i < from.length; i++) {
      addAt(into, i, from[i]);
    }
  }
}
