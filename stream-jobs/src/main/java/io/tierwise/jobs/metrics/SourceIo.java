package io.tierwise.jobs.metrics;

/**
 * I/Os, bytes and latency of one span per storage source other than the front end, by direction
 * (a Flink POJO): {@code io.source} = cache (the tier: read hits, write-back journal writes), peer
 * (WB+n replicas of write-back writes) and datastore (proto/METRICS.md {@code tierwise.io.operations},
 * {@code tierwise.io.bytes}, {@code tierwise.io.latency}). The front end's (VM-observed) figures are
 * in {@link IoCounters} and {@link LatencyHistograms}.
 *
 * <p>Latency is one histogram per (source, direction) over {@link LatencyHistograms#BOUNDS_US}
 * (microseconds), the agent's ioLength bins added together: the storage-type breakdown reads each
 * source's whole distribution. Every field is a count, so spans merge by adding them (rollups of
 * any resolution, scope or tenant; docs/rollups.md).
 *
 * <p>Slot of (source s, direction): {@code s * 2 + (write ? 1 : 0)}; latency bucket b of a slot at
 * {@code slot * BUCKETS + b}.
 */
public class SourceIo {
  /** The sources kept, in slot order (the {@code io.source} values other than frontend). */
  public static final String[] SOURCES = {"cache", "peer", "datastore"};
  /** (source, direction) slots. */
  public static final int SLOTS = SOURCES.length * 2;

  /** I/Os per slot (an I/O a source served part of counts once for it). */
  public long[] ops = new long[SLOTS];
  /** Bytes per slot. */
  public long[] bytes = new long[SLOTS];
  /** Latency bucket counts per slot, {@link LatencyHistograms#BUCKETS} each. */
  public long[] latency = new long[SLOTS * LatencyHistograms.BUCKETS];

  /** For Flink. */
  public SourceIo() {}

  /** The index of {@code source} in {@link #SOURCES}, or -1 (frontend or unknown). */
  public static int sourceIndex(String source) {
    for (int s = 0; s < SOURCES.length; s++) {
      if (SOURCES[s].equals(source)) {
        return s;
      }
    }
    return -1;
  }

  /** The slot of (source index, direction). */
  public static int slot(int source, boolean write) {
    return source * 2 + (write ? 1 : 0);
  }

  /**
   * Adds one latency histogram of (source, direction).
   *
   * @throws IllegalArgumentException when {@code bucketCounts} does not have {@link LatencyHistograms#BUCKETS} entries
   */
  public void addLatency(int source, boolean write, long[] bucketCounts) {
    if (bucketCounts.length != LatencyHistograms.BUCKETS) {
      throw new IllegalArgumentException(bucketCounts.length + " latency buckets, expected " + LatencyHistograms.BUCKETS);
    }
    int base = slot(source, write) * LatencyHistograms.BUCKETS;
    for (int b = 0; b < bucketCounts.length; b++) {
      SaturatingCounters.addAt(latency, base + b, bucketCounts[b]);
    }
  }

  /** The latency bucket counts of one slot (a copy). */
  public long[] latencyOf(int slot) {
    long[] counts = new long[LatencyHistograms.BUCKETS];
    System.arraycopy(latency, slot * LatencyHistograms.BUCKETS, counts, 0, counts.length);
    return counts;
  }

  /** Whether a slot has any I/O, byte or latency count. */
  public boolean isEmpty(int slot) {
    if (ops[slot] != 0 || bytes[slot] != 0) {
      return false;
    }
    for (int b = slot * LatencyHistograms.BUCKETS; b < (slot + 1) * LatencyHistograms.BUCKETS; b++) {
      if (latency[b] != 0) {
        return false;
      }
    }
    return true;
  }

  /** Adds every count of {@code other} into this (saturating, {@link SaturatingCounters}). */
  public void add(SourceIo other) {
    SaturatingCounters.addInto(ops, other.ops);
    SaturatingCounters.addInto(bytes, other.bytes);
    SaturatingCounters.addInto(latency, other.latency);
  }

  /** An independent copy. */
  public SourceIo copy() {
    SourceIo c = new SourceIo();
    c.add(this);
    return c;
  }
}
