package io.tierwise.jobs.testing;

import java.util.Arrays;

/** Summaries of per-key errors for the accuracy tests' reports and bounds. */
public final class Errors {
  private Errors() {}

  /** The mean of {@code a} (non-empty). */
  public static double mean(double[] a) {
    return Arrays.stream(a).average().orElseThrow();
  }

  /** The smallest of {@code a} (non-empty). */
  public static double min(double[] a) {
    return Arrays.stream(a).min().orElseThrow();
  }

  /** The largest of {@code a} (non-empty). */
  public static double max(double[] a) {
    return Arrays.stream(a).max().orElseThrow();
  }
}
