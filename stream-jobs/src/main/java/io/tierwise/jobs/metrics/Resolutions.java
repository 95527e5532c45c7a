package io.tierwise.jobs.metrics;

/**
 * The rollup resolutions, finest first: 10 s (the agent's interval), 1 min, 1 h, 1 d. Their
 * retention in PostgreSQL is in the table rollup_resolutions (db/migrations, docs/rollups.md).
 */
public final class Resolutions {
  /** Names as stored in metric_rollups.resolution. */
  public static final String[] NAMES = {"10s", "1m", "1h", "1d"};
  /** Window lengths, seconds, same order. */
  public static final long[] SECONDS = {10, 60, 3600, 86400};

  private Resolutions() {}

  /** The start (Unix seconds) of the window of resolution {@code r} holding {@code unixSeconds}. */
  public static long windowStart(int r, long unixSeconds) {
    return Math.floorDiv(unixSeconds, SECONDS[r]) * SECONDS[r];
  }
}
