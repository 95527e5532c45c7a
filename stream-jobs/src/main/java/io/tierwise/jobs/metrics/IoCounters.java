package io.tierwise.jobs.metrics;

/**
 * Additive I/O and cache counters of a volume over some span (a Flink POJO). Operations and bytes
 * are front-end I/Os ({@code io.source=frontend}); hits and misses are 4 KiB blocks, all
 * directions and reads only; evictions in bytes (proto/METRICS.md).
 */
public class IoCounters {
  /** Front-end read I/Os. */
  public long readOps;
  /** Front-end write I/Os. */
  public long writeOps;
  /** Front-end bytes read. */
  public long readBytes;
  /** Front-end bytes written. */
  public long writeBytes;
  /** Blocks found in the tier, reads and writes. */
  public long cacheHits;
  /** Blocks not found in the tier, reads and writes. */
  public long cacheMisses;
  /** Blocks found in the tier, reads. */
  public long readCacheHits;
  /** Blocks not found in the tier, reads. */
  public long readCacheMisses;
  /** Bytes evicted from the tier. */
  public long evictedBytes;

  /** For Flink. */
  public IoCounters() {}

  /** An independent copy. */
  public IoCounters copy() {
    IoCounters c = new IoCounters();
    c.add(this);
    return c;
  }

  /** Adds {@code other} into this (saturating, {@link SaturatingCounters}). */
  public void add(IoCounters other) {
    readOps = SaturatingCounters.add(readOps, other.readOps);
    writeOps = SaturatingCounters.add(writeOps, other.writeOps);
    readBytes = SaturatingCounters.add(readBytes, other.readBytes);
    writeBytes = SaturatingCounters.add(writeBytes, other.writeBytes);
    cacheHits = SaturatingCounters.add(cacheHits, other.cacheHits);
    cacheMisses = SaturatingCounters.add(cacheMisses, other.cacheMisses);
    readCacheHits = SaturatingCounters.add(readCacheHits, other.readCacheHits);
    readCacheMisses = SaturatingCounters.add(readCacheMisses, other.readCacheMisses);
    evictedBytes = SaturatingCounters.add(evictedBytes, other.evictedBytes);
  }
}
