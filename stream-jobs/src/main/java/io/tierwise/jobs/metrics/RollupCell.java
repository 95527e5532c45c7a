package io.tierwise.jobs.metrics;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The aggregate of one rollup window of one scope, kept by {@link RollupFunction} (a Flink
 * POJO): summed counters, merged latency histograms (front end, and per source) and workload histograms, and each reporting volume's latest gauges
 * (the window's occupancy and capacity are their sums over volumes).
 */
public class RollupCell {
  /** Index into {@link Resolutions}. */
  public int resolution;
  /** Window start, Unix seconds. */
  public long windowStartSeconds;
  /** Counters summed over the window's volume intervals. */
  public IoCounters io = new IoCounters();
  /** Front-end latency histograms merged over the window. */
  public LatencyHistograms latency = new LatencyHistograms();
  /** Cache, peer and datastore I/Os, bytes and latency, summed over the window. */
  public SourceIo sources = new SourceIo();
  /** The vscsiStats workload histograms merged over the window. */
  public WorkloadHistograms workload = new WorkloadHistograms();
  /** The host's and the consumers' CPU time over the window. */
  public CpuTimes cpu = new CpuTimes();
  /**
   * Volumes that reported in the window: the first {@link #volumeCount} entries (the arrays grow
   * by doubling, so a tenant's window of many volumes costs O(1) per interval).
   */
  public String[] volumes = new String[0];
  /**
   * How many of {@link #volumes} (and of the gauge arrays) are used; 0 with non-empty arrays in a
   * cell checkpointed before the count existed, whose arrays were used whole.
   */
  public int volumeCount;
  /** Start of the latest interval of each volume that carried gauges, Unix ns. */
  public long[] gaugeIntervalUnixNano = new long[0];
  /** Each volume's occupancy gauge of that interval, bytes (0: not reported). */
  public long[] occupancyBytes = new long[0];
  /** Each volume's capacity gauge of that interval, bytes (0: not reported). */
  public long[] capacityBytes = new long[0];
  /** Changed since the last flush. */
  public boolean dirty;

  /** From this many volumes on a cell finds a volume through {@link #volumePositions}. */
  private static final int INDEXED_FROM = 16;

  /**
   * Each used volume's position in {@link #volumes}, built when first needed; not state (Flink's
   * POJO serialiser skips transient fields), so a restored or copied cell builds it again.
   */
  private transient Map<String, Integer> volumePositions;

  /** For Flink. */
  public RollupCell() {}

  /** Volumes that reported in the window. */
  public int volumeCount() {
    return volumeCount == 0 ? volumes.length : volumeCount;
  }

  /** Adds one volume interval. */
  public void add(IntervalMetrics m) {
    io.add(m.io);
    latency.add(m.latency);
    sources.add(m.sources);
    workload.add(m.workload);
    cpu.add(m.cpu);
    int v = position(m.volumeId);
    if (v < 0) {
      v = append(m.volumeId);
    }
    if ((m.occupancyBytes >= 0 || m.capacityBytes >= 0) && m.intervalStartUnixNano >= gaugeIntervalUnixNano[v]) {
      gaugeIntervalUnixNano[v] = m.intervalStartUnixNano;
      occupancyBytes[v] = m.occupancyBytes >= 0 ? m.occupancyBytes : occupancyBytes[v];
      capacityBytes[v] = m.capacityBytes >= 0 ? m.capacityBytes : capacityBytes[v];
    }
    dirty = true;
  }

  /** {@code volumeId}'s position in {@link #volumes}, -1 when it has not reported in the window. */
  private int position(String volumeId) {
    int n = volumeCount();
    if (n < INDEXED_FROM) {
      for (int v = 0; v < n; v++) {
        if (volumes[v].equals(volumeId)) {
          return v;
        }
      }
      return -1;
    }
    if (volumePositions == null || volumePositions.size() != n) {
      volumePositions = new HashMap<>(2 * n);
      for (int v = 0; v < n; v++) {
        volumePositions.put(volumes[v], v);
      }
    }
    return volumePositions.getOrDefault(volumeId, -1);
  }

  /** Adds a volume with no gauges yet; returns its position. */
  private int append(String volumeId) {
    int v = volumeCount();
    if (v == volumes.length) {
      int capacity = Math.max(4, 2 * v);
      volumes = Arrays.copyOf(volumes, capacity);
      gaugeIntervalUnixNano = Arrays.copyOf(gaugeIntervalUnixNano, capacity);
      occupancyBytes = Arrays.copyOf(occupancyBytes, capacity);
      capacityBytes = Arrays.copyOf(capacityBytes, capacity);
    }
    volumes[v] = volumeId;
    volumeCount = v + 1;
    if (volumePositions != null) {
      volumePositions.put(volumeId, v);
    }
    return v;
  }

  /** Window end, Unix seconds. */
  public long windowEndSeconds() {
    return windowStartSeconds + Resolutions.SECONDS[resolution];
  }
}
