package io.tierwise.jobs.metrics;

/**
 * CPU time beside a span's I/O (a Flink POJO): the host's CPU per mode ({@code system.cpu.time})
 * and the volume's consumer's ({@code tierwise.consumer.cpu.time}), proto/METRICS.md; the storage-bound
 * CPU of docs/workload.md. Microseconds, with the wall-clock microseconds of the intervals that
 * carried them, so that spans merge by adding every field and the shares stay right: the host's
 * utilization is its busy modes over all its modes, the consumer's cores its CPU over its wall time.
 * A host's CPU repeats on each of its volumes, which scales both sides of those ratios alike; above
 * a volume (host, cluster, tenant) they are time-weighted means over its volumes' reports.
 */
public class CpuTimes {
  /** {@code cpu.mode} of {@code system.cpu.time}, in {@link #hostMicros} order. */
  public static final String[] HOST_MODES = {"user", "nice", "system", "idle", "iowait", "interrupt", "steal"};
  /** {@code cpu.mode} of {@code tierwise.consumer.cpu.time}. */
  public static final String[] CONSUMER_MODES = {"user", "system"};
  /** {@code tierwise.consumer.kind}, in {@link #consumerWallMicros} order. */
  public static final String[] CONSUMER_KINDS = {"process", "cgroup"};

  /** The host's CPU time per {@link #HOST_MODES} mode, microseconds over all its CPUs. */
  public long[] hostMicros = new long[HOST_MODES.length];
  /** Wall-clock length of the intervals that carried the host's CPU, microseconds. */
  public long hostWallMicros;
  /** The consumer's CPU time at {@code kind * 2 + mode} ({@link #CONSUMER_KINDS}, {@link #CONSUMER_MODES}), microseconds. */
  public long[] consumerMicros = new long[CONSUMER_KINDS.length * CONSUMER_MODES.length];
  /** Wall-clock length of the intervals that carried each kind's consumer CPU, microseconds. */
  public long[] consumerWallMicros = new long[CONSUMER_KINDS.length];

  /** For Flink. */
  public CpuTimes() {}

  /** Index of {@code mode} in {@link #HOST_MODES}, or -1. */
  public static int hostMode(String mode) {
    return indexOf(HOST_MODES, mode);
  }

  /** Index of {@code mode} in {@link #CONSUMER_MODES}, or -1. */
  public static int consumerMode(String mode) {
    return indexOf(CONSUMER_MODES, mode);
  }

  /** Index of {@code kind} in {@link #CONSUMER_KINDS}, or -1. */
  public static int consumerKind(String kind) {
    return indexOf(CONSUMER_KINDS, kind);
  }

  /** Whether any interval of the span carried CPU time. */
  public boolean measured() {
    return hostWallMicros > 0 || consumerWallMicros[0] > 0 || consumerWallMicros[1] > 0;
  }

  /** Adds another span's CPU time. */
  public void add(CpuTimes other) {
    SaturatingCounters.addInto(hostMicros, other.hostMicros);
    hostWallMicros = SaturatingCounters.add(hostWallMicros, other.hostWallMicros);
    SaturatingCounters.addInto(consumerMicros, other.consumerMicros);
    SaturatingCounters.addInto(consumerWallMicros, other.consumerWallMicros);
  }

  /** A deep copy. */
  public CpuTimes copy() {
    CpuTimes c = new CpuTimes();
    c.add(this);
    return c;
  }

  private static int indexOf(String[] values, String value) {
    for (int i = 0; i < values.length; i++) {
      if (values[i].equals(value)) {
        return i;
      }
    }
    return -1;
  }
}
