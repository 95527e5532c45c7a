package io.tierwise.jobs.metrics;

import java.util.List;

/**
 * The I/O size bins of vscsiStats' ioLength histogram (VMware vscsiStats, "-p ioLength"), as
 * used by the agent's {@code tierwise.io.size} histogram and {@code tierwise.io.size_bin}
 * attribute (proto/METRICS.md): inclusive upper bounds in bytes 512 .. 524288, then an open bin
 * {@code >524288}; 18 bins.
 */
public final class IoLengthBins {
  /** Inclusive upper bounds of the first 17 bins, bytes. */
  private static final long[] UPPER_BOUNDS = {
    512, 1024, 2048, 4095, 4096, 8191, 8192, 16383, 16384, 32768, 49152, 65535, 65536, 81920,
    131072, 262144, 524288
  };

  /** Number of bins (17 bounded + 1 open). */
  public static final int COUNT = UPPER_BOUNDS.length + 1;

  /** Each bin's label, made once: the parsers look labels up per data point. */
  private static final String[] LABELS = new String[COUNT];

  static {
    for (int i = 0; i < UPPER_BOUNDS.length; i++) {
      LABELS[i] = Long.toString(UPPER_BOUNDS[i]);
    }
    LABELS[UPPER_BOUNDS.length] = ">" + UPPER_BOUNDS[UPPER_BOUNDS.length - 1];
  }

  private IoLengthBins() {}

  /** The label of bin {@code i}: its upper bound as a decimal string, or ">524288" for the last. */
  public static String label(int i) {
    return LABELS[i];
  }

  /** The inclusive upper bound of bin {@code i} in bytes, or null for the open last bin. */
  public static Long upperBytes(int i) {
    return i < UPPER_BOUNDS.length ? UPPER_BOUNDS[i] : null;
  }

  /** The bin of an I/O of {@code bytes} bytes. */
  public static int of(long bytes) {
    for (int i = 0; i < UPPER_BOUNDS.length; i++) {
      if (bytes <= UPPER_BOUNDS[i]) {
        return i;
      }
    }
    return COUNT - 1;
  }

  /** The bin whose label is {@code label}, or -1 when no bin has that label. */
  public static int indexOf(String label) {
    for (int i = 0; i < COUNT; i++) {
      if (LABELS[i].equals(label)) {
        return i;
      }
    }
    return -1;
  }

  /** Whether an OTLP histogram's explicit_bounds are exactly these bins' upper bounds. */
  public static boolean matches(List<Double> explicitBounds) {
    return SparseCounts.boundsMatch(explicitBounds, UPPER_BOUNDS);
  }
}
