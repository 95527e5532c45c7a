package io.tierwise.jobs.workingset;

/**
 * One validated {@code tierwise.v1.ReferenceBatch} of one volume (a Flink POJO). References are
 * in time order; parallel arrays hold, per reference, the block hash {@code H(L)}, whether it was
 * a write, and its time relative to {@link #baseTimeUnixNano} in microseconds. The stream totals
 * (considered references, distinct-block sketch updates) are those of {@link ShardsFixedRate}.
 */
public class ReferenceBatchEvent {
  /** Tenant (UUID text), stamped by ingest. */
  public String tenantId;
  /** Pseudonymous volume id. */
  public String volumeId;
  /** Pseudonymous host id (may be empty). */
  public String hostId;
  /** Pseudonymous cluster id of the volume's host, null when it is in no cluster. */
  public String clusterId;
  /** The agent's batch id. */
  public String batchId;
  /** Position in the volume's stream: 0, 1, 2, ... */
  public long sequence;
  /** SHARDS modulus P (unsigned). */
  public long samplingModulus;
  /** SHARDS threshold T (unsigned). */
  public long samplingThreshold;
  /** Time of the first reference, Unix epoch nanoseconds. */
  public long baseTimeUnixNano;
  /** H(L) of each referenced 4 KiB block. */
  public long[] blockHashes;
  /** True where the reference is a write. */
  public boolean[] writes;
  /** Length of the I/O that made each reference, 4 KiB blocks (&ge; 1). */
  public int[] lengthBlocks;
  /** Time of each reference after baseTimeUnixNano, microseconds, non-decreasing. */
  public long[] timeOffsetsMicros;
  /** N of the batch's span: all block references considered, sampled or not (0 without totals). */
  public long consideredReferences;
  /** p of the distinct-block HyperLogLog sketch; 0 when the batch carries no stream totals. */
  public int distinctBlocksHllPrecision;
  /** Register updates of the sketch, each {@code (index << 8) | value}. */
  public int[] distinctBlocksHllUpdates = new int[0];

  /** For Flink. */
  public ReferenceBatchEvent() {}

  /** The key the jobs partition by: "tenant/volume". */
  public String volumeKey() {
    return tenantId + "/" + volumeId;
  }

  /** The key of the volume's cluster, "tenant/cluster", or null when it is in no cluster. */
  public String clusterKey() {
    return clusterId == null ? null : tenantId + "/" + clusterId;
  }

  /** Number of references. */
  public int size() {
    return blockHashes.length;
  }

  /** Time of reference {@code i}, Unix epoch nanoseconds. */
  public long referenceTimeUnixNano(int i) {
    return baseTimeUnixNano + timeOffsetsMicros[i] * 1000;
  }
}
