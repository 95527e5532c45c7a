package io.tierwise.jobs.metrics;

/**
 * Front-end I/O counts and bytes per vscsiStats ioLength bin ({@link IoLengthBins}), reads and
 * writes apart (a Flink POJO; arrays of {@link IoLengthBins#COUNT}).
 */
public class BlockSizeCounts {
  /** Read I/Os per bin. */
  public long[] readOps = new long[IoLengthBins.COUNT];
  /** Write I/Os per bin. */
  public long[] writeOps = new long[IoLengthBins.COUNT];
  /** Bytes read per bin. */
  public long[] readBytes = new long[IoLengthBins.COUNT];
  /** Bytes written per bin. */
  public long[] writeBytes = new long[IoLengthBins.COUNT];

  /** For Flink. */
  public BlockSizeCounts() {}

  /**
   * Adds {@code other} into this (saturating, {@link SaturatingCounters}).
   *
   * @return a bit mask of the (direction, bin) cells that changed: bit {@code bin} for reads,
   *     bit {@code COUNT + bin} for writes
   */
  public long add(BlockSizeCounts other) {
    long changed = 0;
    for (int i = 0; i < IoLengthBins.COUNT; i++) {
      if (other.readOps[i] != 0 || other.readBytes[i] != 0) {
        SaturatingCounters.addAt(readOps, i, other.readOps[i]);
        SaturatingCounters.addAt(readBytes, i, other.readBytes[i]);
        changed |= 1L << i;
      }
      if (other.writeOps[i] != 0 || other.writeBytes[i] != 0) {
        SaturatingCounters.addAt(writeOps, i, other.writeOps[i]);
        SaturatingCounters.addAt(writeBytes, i, other.writeBytes[i]);
        changed |= 1L << (IoLengthBins.COUNT + i);
      }
    }
    return changed;
  }
}
