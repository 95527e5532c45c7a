package io.tierwise.jobs.metrics;

import java.util.Arrays;

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
  /** Volumes that reported in the window. */
  public String[] volumes = new String[0];
  /** Start of the latest interval of each volume that carried gauges, Unix ns. */
  public long[] gaugeIntervalUnixNano = new long[0];
  /** Each volume's occupancy gauge of that interval, bytes (0: not reported). */
  public long[] occupancyBytes = new long[0];
  /** Each volume's capacity gauge of that interval, bytes (0: not reported). */
  public long[] capacityBytes = new long[0];
  /** Changed since the last flush. */
  public boolean dirty;

  /** For Flink. */
  public RollupCell() {}

  /** Adds one volume interval. */
  public void add(IntervalMetrics m) {
    io.add(m.io);
    latency.add(m.latency);
    sources.add(m.sources);
    workload.add(m.workload);
    cpu.add(m.cpu);
    int v = Arrays.asList(volumes).indexOf(m.volumeId);
    if (v < 0) {
      v = volumes.length;
      volumes = Arrays.copyOf(volumes, v + 1);
      volumes[v] = m.volumeId;
      gaugeIntervalUnixNano = Arrays.copyOf(gaugeIntervalUnixNano, v + 1);
      occupancyBytes = Arrays.copyOf(occupancyBytes, v + 1);
      capacityBytes = Arrays.copyOf(capacityBytes, v + 1);
    }
    if ((m.occupancyBytes >= 0 || m.capacityBytes >= 0) && m.intervalStartUnixNano >= gaugeIntervalUnixNano[v]) {
      gaugeIntervalUnixNano[v] = m.intervalStartUnixNano;
      occupancyBytes[v] = m.occupancyBytes >= 0 ? m.occupancyBytes : occupancyBytes[v];
      capacityBytes[v] = m.capacityBytes >= 0 ? m.capacityBytes : capacityBytes[v];
    }
    dirty = true;
  }

  /** Window end, Unix seconds. */
  public long windowEndSeconds() {
    return windowStartSeconds + Resolutions.SECONDS[resolution];
  }
}
