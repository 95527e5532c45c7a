package io.tierwise.jobs.metrics;

/**
 * The vscsiStats workload histograms of one span (proto/METRICS.md; Ahmad, "Easy and Efficient
 * Disk I/O Workload Characterization in VMware ESX Server", IISWC 2007): seek distance between
 * successive commands and from the closest of the previous 16 (512-byte sectors, signed),
 * outstanding I/Os at issue, interarrival time and, from imported vscsiStats output, latency
 * (microseconds); and block alignment (where commands
 * start within their 4 KiB block, and the counters of the extra blocks that costs); per direction
 * {@code all}, {@code read}, {@code write} ({@code all} only for the closest-of-16 family). Each keeps vscsiStats'
 * own bucket limits; bucket i counts values in (bounds[i-1], bounds[i]], the last those above the
 * last bound. Merged by adding bucket counts ({@link SparseCounts}).
 *
 * <p>Cell index = {@link Family#firstCell} + direction * buckets + bucket, direction 0 = all,
 * 1 = read, 2 = write.
 */
public class WorkloadHistograms extends SparseCounts {
  /** The values of io.direction on these families, in cell order. */
  public static final String[] DIRECTIONS = {"all", "read", "write"};
  /** Index of read and of write in {@link #DIRECTIONS}. */
  public static final int READ = 1;
  public static final int WRITE = 2;

  /** vscsiStats seekDistance bounds, sectors (METRICS.md). */
  public static final long[] SEEK_DISTANCE_BOUNDS_SECTORS = {
    -500000, -100000, -50000, -10000, -5000, -1000, -500, -128, -64, -32, -16, -8, -6, -4, -2, -1, 0,
    1, 2, 4, 6, 8, 16, 32, 64, 128, 500, 1000, 5000, 10000, 50000, 100000, 500000
  };
  /** vscsiStats outstandingIOs bounds (METRICS.md). */
  public static final long[] OUTSTANDING_IOS_BOUNDS = {1, 2, 4, 6, 8, 12, 16, 20, 24, 28, 32, 64};
  /** vscsiStats interarrival bounds, microseconds (METRICS.md). */
  public static final long[] INTERARRIVAL_BOUNDS_US = {1, 10, 100, 500, 1000, 5000, 15000, 30000, 50000, 100000};

  /** Block alignment bounds, sectors into the 4 KiB block (METRICS.md "Block alignment"). */
  public static final long[] ALIGNMENT_BOUNDS_SECTORS = {0, 1, 2, 3, 4, 5, 6};

  /** Cells per direction of {@link Family#ALIGNMENT_WORK}: its counters, in this order. */
  public static final int MISALIGNED_BYTES = 0;
  public static final int BLOCKS_ISSUED = 1;
  public static final int BLOCKS_ALIGNED = 2;

  /**
   * One family: its metric, its JSON name in metric_rollups.workload, bounds and directions. Cells
   * are laid out in declaration order, so a family added at the end leaves the others' cells (and
   * the state that holds them) as they were.
   */
  public enum Family {
    SEEK_DISTANCE("tierwise.io.seek_distance", "seek_distance", SEEK_DISTANCE_BOUNDS_SECTORS, 3),
    SEEK_DISTANCE_CLOSEST("tierwise.io.seek_distance.closest", "seek_distance_closest", SEEK_DISTANCE_BOUNDS_SECTORS, 1),
    OUTSTANDING("tierwise.io.outstanding", "outstanding", OUTSTANDING_IOS_BOUNDS, 3),
    INTERARRIVAL("tierwise.io.interarrival", "interarrival_us", INTERARRIVAL_BOUNDS_US, 3),
    /** Where commands start within their 4 KiB block (tierwise.io.alignment). */
    ALIGNMENT("tierwise.io.alignment", "alignment", ALIGNMENT_BOUNDS_SECTORS, 3),
    /**
     * Not a histogram: per direction (read, write) the counters of tierwise.io.alignment.misaligned_bytes
     * and tierwise.io.alignment.blocks (issued, aligned), cells {@link #MISALIGNED_BYTES}, {@link
     * #BLOCKS_ISSUED}, {@link #BLOCKS_ALIGNED}; added like the histograms' counts.
     */
    ALIGNMENT_WORK(null, "alignment_work", null, 3, BLOCKS_ALIGNED + 1),
    /** Front-end latency in vscsiStats' buckets (tierwise.io.latency.vscsistats: imported output only). */
    LATENCY("tierwise.io.latency.vscsistats", "latency_us", INTERARRIVAL_BOUNDS_US, 3);

    /** OTLP metric name (null for {@link #ALIGNMENT_WORK}, made of two sums). */
    public final String metric;
    /** Key in metric_rollups.workload. */
    public final String json;
    /** Bucket upper bounds (null for {@link #ALIGNMENT_WORK}). */
    public final long[] bounds;
    /** Directions kept: 3 (all, read, write) or 1 (all). */
    public final int directions;
    /** First cell of the family: the cells of the families declared before it. */
    public int firstCell;

    static {
      int cell = 0;
      for (Family f : values()) {
        f.firstCell = cell;
        cell += f.directions * f.buckets();
      }
    }

    Family(String metric, String json, long[] bounds, int directions) {
      this(metric, json, bounds, directions, bounds.length + 1);
    }

    Family(String metric, String json, long[] bounds, int directions, int cellsPerDirection) {
      this.metric = metric;
      this.json = json;
      this.bounds = bounds;
      this.directions = directions;
      this.cellsPerDirection = cellsPerDirection;
    }

    /** Cells per direction: a histogram's buckets (the bounds and the open last one), or counters. */
    private final int cellsPerDirection;

    /** Buckets per histogram: the bounds and the open last one ({@link #ALIGNMENT_WORK}: its counters). */
    public int buckets() {
      return cellsPerDirection;
    }

    /** The family of an OTLP metric name, or null. */
    public static Family of(String metric) {
      for (Family f : values()) {
        if (metric.equals(f.metric)) {
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

  /**
   * Adds {@code value} to counter {@code cell} ({@link #MISALIGNED_BYTES}, {@link #BLOCKS_ISSUED},
   * {@link #BLOCKS_ALIGNED}) of {@link Family#ALIGNMENT_WORK} for direction index {@code direction}.
   */
  public void addAlignmentWork(int direction, int cell, long value) {
    long[] dense = new long[Family.ALIGNMENT_WORK.buckets()];
    dense[cell] = value;
    addDense(Family.ALIGNMENT_WORK.firstCell + direction * Family.ALIGNMENT_WORK.buckets(), dense);
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
