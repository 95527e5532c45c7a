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

  /** Adds {@code other} into this. */
  public void add(IoCounters other) {
    readOps += other.readOps;
    writeOps += other.writeOps;
    readBytes += other.readBytes;
    writeBytes += other.writeBytes;
    cacheHits += other.cacheHits;
    cacheMisses += other.cacheMisses;
    readCacheHits += other.readCacheHits;
    readCacheMisses += other.readCacheMisses;
    evictedBytes += other.evictedBytes;
  }
}
