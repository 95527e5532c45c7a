package io.tierwise.jobs.metrics;

/**
 * Addition of the rollups' counters (I/Os, bytes, histogram counts; never negative: the parser
 * refuses negative values). A sum that would pass {@link Long#MAX_VALUE} stays there instead of
 * wrapping to a negative count (issue 16 finding 8: two data points of 2^63 - 1 read I/Os were
 * read back as -2). Ingest refuses any data point above the per-interval limit of
 * proto/METRICS.md "Limits", so only a fleet-wide sum over a long window can get there.
 */
public final class SaturatingCounters {
  private SaturatingCounters() {}

  /** {@code a + b} for {@code a, b >= 0}, or {@link Long#MAX_VALUE} when that would overflow. */
  public static long add(long a, long b) {
    long sum = a + b;
    return sum < 0 ? Long.MAX_VALUE : sum;
  }

  /** Adds {@code from[i]} into {@code into[i]} for every index of {@code from}, saturating. */
  public static void addInto(long[] into, long[] from) {
    for (int i = 0; i < from.length; i++) {
      into[i] = add(into[i], from[i]);
    }
  }
}
