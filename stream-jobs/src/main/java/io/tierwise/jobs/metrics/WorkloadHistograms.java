package io.tierwise.jobs.metrics;

/**
 * The vscsiStats workload histograms of one span (proto/METRICS.md; Ahmad, "Easy and Efficient
 * Disk I/O Workload Characterization in VMware ESX Server", IISWC 2007): seek distance between
 * successive commands and from the closest of the previous 16 (512-byte sectors, signed),
 * outstanding I/Os at issue, interarrival time (microseconds); per direction {@code all}, {@code
 * read}, {@code write} ({@code all} only for the closest-of-16 family). Each keeps vscsiStats'
 * own bucket limits; bucket i counts values in (bounds[i-1], bounds[i]], the last those above the
 * last bound. Merged by adding bucket counts ({@link SparseCounts}).
 *
 * <p>Cell index = {@link Family#firstCell} + direction * buckets + bucket, direction 0 = all,
 * 1 = read, 2 = write.
 */
public class WorkloadHistograms extends SparseCounts {
  /** The values of io.direction on these families, in cell order. */
  public static final String[] DIRECTIONS = {"all", "read", "write"};

  /** vscsiStats seekDistance bounds, sectors (METRICS.md). */
  public static final long[] SEEK_DISTANCE_BOUNDS_SECTORS = {
    -500000, -100000, -50000, -10000, -5000, -1000, -500, -128, -64, -32, -16, -8, -6, -4, -2, -1, 0,
    1, 2, 4, 6, 8, 16, 32, 64, 128, 500, 1000, 5000, 10000, 50000, 100000, 500000
  };
  /** vscsiStats outstandingIOs bounds (METRICS.md). */
  public static final long[] OUTSTANDING_IOS_BOUNDS = {1, 2, 4, 6, 8, 12, 16, 20, 24, 28, 32, 64};
  /** vscsiStats interarrival bounds, microseconds (METRICS.md). */
  public static final long[] INTERARRIVAL_BOUNDS_US = {1, 10, 100, 500, 1000, 5000, 15000, 30000, 50000, 100000};

  /** One family: its metric, its JSON name in metric_rollups.workload, bounds and directions. */
  public enum Family {
    SEEK_DISTANCE("tierwise.io.seek_distance", "seek_distance", SEEK_DISTANCE_BOUNDS_SECTORS, 3, 0),
    SEEK_DISTANCE_CLOSEST("tierwise.io.seek_distance.closest", "seek_distance_closest", SEEK_DISTANCE_BOUNDS_SECTORS, 1,
        3 * (SEEK_DISTANCE_BOUNDS_SECTORS.length + 1)),
    OUTSTANDING("tierwise.io.outstanding", "outstanding", OUTSTANDING_IOS_BOUNDS, 3,
        4 * (SEEK_DISTANCE_BOUNDS_SECTORS.length + 1)),
    INTERARRIVAL("tierwise.io.interarrival", "interarrival_us", INTERARRIVAL_BOUNDS_US, 3,
        4 * (SEEK_DISTANCE_BOUNDS_SECTORS.length + 1) + 3 * (OUTSTANDING_IOS_BOUNDS.length + 1));

    /** OTLP metric name. */
    public final String metric;
    /** Key in metric_rollups.workload. */
    public final String json;
    /** Bucket upper bounds. */
    public final long[] bounds;
    /** Directions kept: 3 (all, read, write) or 1 (all). */
    public final int directions;
    /** First cell of the family. */
    public final int firstCell;

    Family(String metric, String json, long[] bounds, int directions, int firstCell) {
      this.metric = metric;
      this.json = json;
      this.bounds = bounds;
      this.directions = directions;
      this.firstCell = firstCell;
    }

    /** Buckets per histogram: the bounds and the open last one. */
    public int buckets() {
      return bounds.length + 1;
    }

    /** The family of an OTLP metric name, or null. */
    public static Family of(String metric) {
      for (Family f : values()) {
        if (f.metric.equals(metric)) {
          return f;
        }
      }
      return null;
    }

    /** The family holding {@code cell}. */
    public static Family ofCell(int cell) {
      Family found = SEEK_DISTANCE;
      for (Family f : values()) {
        if (cell >= f.firstCell) {
          found = f;
        }
      }
      return found;
    }
  }

  /** For Flink. */
  public WorkloadHistograms() {}

  /**
   * Adds one histogram of {@code family} for direction index {@code direction} ({@link #DIRECTIONS}).
   *
   * @throws IllegalArgumentException when the bucket count or the direction does not fit the family
   */
  public void add(Family family, int direction, long[] bucketCounts) {
    if (bucketCounts.length != family.buckets() || direction < 0 || direction >= family.directions) {
      throw new IllegalArgumentException(family.metric + ": " + bucketCounts.length + " buckets for direction " + direction);
    }
    addDense(family.firstCell + direction * family.buckets(), bucketCounts);
  }

  /** Adds every count of {@code other} into this (saturating). */
  public void add(WorkloadHistograms other) {
    merge(other);
  }

  /** An independent copy. */
  public WorkloadHistograms copy() {
    WorkloadHistograms h = new WorkloadHistograms();
    h.cells = cells.clone();
    h.counts = counts.clone();
    return h;
  }
}
