package io.tierwise.jobs.metrics;

/**
 * The latency the agent measured behind its tier, per vscsiStats ioLength bin ({@link
 * IoLengthBins}; a Flink POJO): the I/Os and their latency sum, microseconds, of the datastore's
 * reads and writes and of the peers' writes (WB+n replicas), from the data points of
 * {@code tierwise.io.latency} with {@code io.source} datastore or peer (proto/METRICS.md: each
 * carries its direction, its {@code tierwise.io.size_bin} and the sum of its latencies). The
 * tier's own latency ({@code io.source=cache}) is not kept: the telemetry does not say which media
 * served it, and a recommendation may be for another (docs/analytics.md "Measured latency"). Every
 * field is a count, so spans merge by adding them.
 *
 * <p>Series: {@link #DATASTORE_READ}, {@link #DATASTORE_WRITE}, {@link #PEER_WRITE}; the cell of
 * (series s, bin b) at {@code s * IoLengthBins.COUNT + b}.
 */
public class MeasuredLatency {
  /** The datastore's reads (the misses of a tier, or every read without one). */
  public static final int DATASTORE_READ = 0;
  /** The datastore's writes (write-through writes, write-back destages). */
  public static final int DATASTORE_WRITE = 1;
  /** Writes to the peers of a write-back tier. */
  public static final int PEER_WRITE = 2;
  private static final int SERIES = 3;

  /** I/Os per cell. */
  public long[] ops = new long[SERIES * IoLengthBins.COUNT];
  /** Latency sum per cell, microseconds. */
  public double[] sumMicros = new double[SERIES * IoLengthBins.COUNT];

  /** For Flink. */
  public MeasuredLatency() {}

  /**
   * Adds one data point: {@code ops} I/Os of {@code bin} taking {@code sumMicros} in all. Points
   * of the tier ({@code cache}) and peer reads are not kept (class doc).
   *
   * @param source the {@link SourceIo#SOURCES} index of the point's {@code io.source}
   * @param write the point's direction
   * @param bin its ioLength bin
   */
  public void add(int source, boolean write, int bin, long ops, double sumMicros) {
    int series = series(source, write);
    if (series >= 0) {
      int i = series * IoLengthBins.COUNT + bin;
      SaturatingCounters.addAt(this.ops, i, ops);
      this.sumMicros[i] += sumMicros;
    }
  }

  /** Adds every count of {@code other} into this. */
  public void add(MeasuredLatency other) {
    for (int i = 0; i < ops.length; i++) {
      SaturatingCounters.addAt(ops, i, other.ops[i]);
      sumMicros[i] += other.sumMicros[i];
    }
  }

  /** I/Os measured in (series, bin). */
  public long ops(int series, int bin) {
    return ops[series * IoLengthBins.COUNT + bin];
  }

  /** Mean latency of (series, bin), microseconds; NaN when nothing was measured there. */
  public double meanMicros(int series, int bin) {
    long n = ops(series, bin);
    return n == 0 ? Double.NaN : sumMicros[series * IoLengthBins.COUNT + bin] / n;
  }

  /** Whether nothing was measured. */
  public boolean isEmpty() {
    for (long n : ops) {
      if (n != 0) {
        return false;
      }
    }
    return true;
  }

  /** The series of (source, direction), or -1 for one not kept. */
  private static int series(int source, boolean write) {
    String name = source < 0 ? "" : SourceIo.SOURCES[source];
    return switch (name) {
      case "datastore" -> write ? DATASTORE_WRITE : DATASTORE_READ;
      case "peer" -> write ? PEER_WRITE : -1;
      default -> -1;
    };
  }
}
