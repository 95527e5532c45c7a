package io.tierwise.jobs.workingset.estimate;

import io.tierwise.jobs.metrics.IoLengthBins;

/**
 * A volume's I/O mix estimated from its SHARDS-sampled block references (a Flink POJO): I/Os and
 * bytes per direction and vscsiStats ioLength bin ({@link IoLengthBins}), and the time span.
 *
 * <p>An I/O of {@code len} 4 KiB blocks makes {@code len} block references, each sampled with
 * probability {@code R} (the agent's fixed rate), so each sampled reference stands for
 * {@code 1 / (R len)} I/Os and {@code 4096 / R} bytes (Horvitz-Thompson estimator: D. G. Horvitz
 * and D. J. Thompson, JASA 47(260), 1952). Bins are chosen by {@code len x 4096} bytes.
 */
public class IoProfile {
  /** Estimated read I/Os per bin. */
  public double[] readOps = new double[IoLengthBins.COUNT];
  /** Estimated write I/Os per bin. */
  public double[] writeOps = new double[IoLengthBins.COUNT];
  /** Estimated read bytes per bin. */
  public double[] readBytes = new double[IoLengthBins.COUNT];
  /** Estimated write bytes per bin. */
  public double[] writeBytes = new double[IoLengthBins.COUNT];
  /** Time of the first reference, Unix epoch nanoseconds (0: none yet). */
  public long firstUnixNano;
  /** Time of the last reference, Unix epoch nanoseconds. */
  public long lastUnixNano;

  /** For Flink. */
  public IoProfile() {}

  /**
   * Adds one sampled reference.
   *
   * @param write true for a write
   * @param lengthBlocks length of the I/O that made it, 4 KiB blocks, &ge; 1
   * @param rate the agent's sampling rate R, in (0, 1]
   * @param timeUnixNano its time, Unix epoch nanoseconds (in any order: the span is from the
   *     earliest to the latest)
   */
  public void add(boolean write, int lengthBlocks, double rate, long timeUnixNano) {
    addCount(write, lengthBlocks, rate, 1);
    cover(timeUnixNano, timeUnixNano);
  }

  /**
   * Adds {@code count} sampled references made by I/Os of one direction and length (a batch's
   * summary of them), without their times ({@link #cover}).
   */
  public void addCount(boolean write, int lengthBlocks, double rate, long count) {
    int bin = IoLengthBins.of((long) lengthBlocks * 4096);
    double ops = count / (rate * lengthBlocks);
    double bytes = count * 4096.0 / rate;
    if (write) {
      writeOps[bin] += ops;
      writeBytes[bin] += bytes;
    } else {
      readOps[bin] += ops;
      readBytes[bin] += bytes;
    }
  }

  /** Widens the span to cover references from {@code firstUnixNano} to {@code lastUnixNano} (Unix epoch ns). */
  public void cover(long firstUnixNano, long lastUnixNano) {
    if (this.firstUnixNano == 0 || firstUnixNano < this.firstUnixNano) {
      this.firstUnixNano = firstUnixNano;
    }
    this.lastUnixNano = Math.max(this.lastUnixNano, lastUnixNano);
  }

  /** An independent copy. */
  public IoProfile copy() {
    IoProfile c = new IoProfile();
    c.readOps = readOps.clone();
    c.writeOps = writeOps.clone();
    c.readBytes = readBytes.clone();
    c.writeBytes = writeBytes.clone();
    c.firstUnixNano = firstUnixNano;
    c.lastUnixNano = lastUnixNano;
    return c;
  }

  /** Seconds between the first and last reference, at least 1. */
  public double seconds() {
    return Math.max(1, (lastUnixNano - firstUnixNano) / 1e9);
  }

  /** The sum of {@code values} (one of the per-bin arrays). */
  public static double sum(double[] values) {
    double s = 0;
    for (double v : values) {
      s += v;
    }
    return s;
  }
}
