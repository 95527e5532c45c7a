package io.tierwise.jobs.metrics;

/** Per-volume totals kept by {@link MetricsRollupFunction} (a Flink POJO). */
public class VolumeTotals {
  /** The volume_io_stats row being accumulated. */
  public VolumeIoStatsRow stats = new VolumeIoStatsRow();
  /** Block-size distribution over all intervals. */
  public BlockSizeCounts blockSizes = new BlockSizeCounts();
  /** Start of the interval whose capacity gauge is in {@code stats}, Unix ns (0: none yet). */
  public long capacityIntervalUnixNano;
  /** The stats row changed since the last flush. */
  public boolean dirty;
  /** (direction, bin) cells changed since the last flush, as {@link BlockSizeCounts#add} bits. */
  public long dirtyBins;

  /** For Flink. */
  public VolumeTotals() {}
}
