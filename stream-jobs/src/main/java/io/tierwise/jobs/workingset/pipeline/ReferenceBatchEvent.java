package io.tierwise.jobs.workingset.pipeline;

import io.tierwise.jobs.workingset.estimate.IoProfile;
import io.tierwise.jobs.workingset.estimate.MiniatureBatch;
import io.tierwise.jobs.workingset.estimate.ShardsEstimator;
import io.tierwise.jobs.workingset.estimate.ShardsFixedRate;
import io.tierwise.jobs.workingset.estimate.WindowShares;
import java.io.IOException;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

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
  /**
   * Hits of the agent's exact LRU cache of {@link #lruAnchorBlocks} blocks among the batch's
   * considered references (a volume's own stream only: the cluster stream ({@link ClusterStream})'s state keeps none).
   */
  public long lruAnchorHits;
  /** Size of that LRU cache, 4 KiB blocks; 0 when the batch carries no anchor. */
  public int lruAnchorBlocks;
  /**
   * The agent's miniature simulations of the engine's policies over this batch; null when it ran
   * none (older agents) or not every policy the service reports. Not part of {@link #writeTo}: a
   * shared tier simulates its merged stream itself.
   */
  public MiniatureBatch miniature;
  /**
   * The agent's simulations of the host's shared tier over this batch's references (the host's
   * volumes' counts add up to the tier's); null when it sent none or not every policy.
   */
  public MiniatureBatch hostTier;
  /**
   * What this batch adds to the volume's working-set windows, computed by the agent; null when it
   * sent none (older agents). Not part of {@link #writeTo}: a shared tier simulates its merged
   * stream itself.
   */
  public WindowShares workingSet;
  /**
   * What this batch adds to its host's shared tier's working-set windows (the agent runs them over
   * all the host's volumes; the host's volumes' shares add up to the tier's); null when it sent
   * none (older agents). Not part of {@link #writeTo}: a shared tier adds it up as it comes.
   */
  public WindowShares hostTierWorkingSet;
  /**
   * The batch's sampled references summarised in place of the references (then none); null when
   * it carries them. Not part of {@link #writeTo}: a batch a shared tier queues carries its
   * references.
   */
  public ReferenceSummary summary;

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

  /** Number of references carried. */
  public int size() {
    return blockHashes.length;
  }

  /** Number of sampled references, carried or summarised. */
  public long sampledReferences() {
    return summary != null ? summary.references : size();
  }

  /** Time of the first sampled reference (carried or summarised), Unix epoch ns; 0 when there is none. */
  public long firstReferenceUnixNano() {
    return summary != null ? summary.firstUnixNano : size() == 0 ? 0 : referenceTimeUnixNano(0);
  }

  /** Time of the last sampled reference (carried or summarised), Unix epoch ns; 0 when there is none. */
  public long lastReferenceUnixNano() {
    return summary != null ? summary.lastUnixNano : size() == 0 ? 0 : referenceTimeUnixNano(size() - 1);
  }

  /** Adds the sampled references (carried or summarised) to {@code io}, each at the batch's rate. */
  public void addIoMix(IoProfile io) {
    double rate = ShardsEstimator.samplingRate(samplingModulus, samplingThreshold);
    if (summary != null) {
      summary.addTo(io, rate);
      return;
    }
    for (int i = 0; i < size(); i++) {
      io.add(writes[i], lengthBlocks[i], rate, referenceTimeUnixNano(i));
    }
  }

  /** Time of reference {@code i}, Unix epoch nanoseconds. */
  public long referenceTimeUnixNano(int i) {
    return baseTimeUnixNano + timeOffsetsMicros[i] * 1000;
  }

  /** Bytes {@link #writeTo} writes (ids counted at one byte per character, as ASCII ids are). */
  public long stateBytes() {
    return 2L + volumeId.length() + 2 + batchId.length() + 5 * Long.BYTES + 3 * Integer.BYTES
        + (long) Integer.BYTES * distinctBlocksHllUpdates.length
        + (long) size() * (Long.BYTES + 1 + Integer.BYTES + Long.BYTES);
  }

  /** Writes the batch (for {@link ClusterStream}'s state; volume ids and times, not tenant or host). */
  public void writeTo(DataOutputView out) throws IOException {
    out.writeUTF(volumeId);
    out.writeUTF(batchId);
    out.writeLong(sequence);
    out.writeLong(samplingModulus);
    out.writeLong(samplingThreshold);
    out.writeLong(baseTimeUnixNano);
    out.writeLong(consideredReferences);
    out.writeInt(distinctBlocksHllPrecision);
    out.writeInt(distinctBlocksHllUpdates.length);
    for (int u : distinctBlocksHllUpdates) {
      out.writeInt(u);
    }
    out.writeInt(size());
    for (int i = 0; i < size(); i++) {
      out.writeLong(blockHashes[i]);
      out.writeBoolean(writes[i]);
      out.writeInt(lengthBlocks[i]);
      out.writeLong(timeOffsetsMicros[i]);
    }
  }

  /** Reads a batch written by {@link #writeTo}; {@link IOException} on a negative length. */
  public static ReferenceBatchEvent readFrom(DataInputView in) throws IOException {
    ReferenceBatchEvent e = new ReferenceBatchEvent();
    e.volumeId = in.readUTF();
    e.batchId = in.readUTF();
    e.sequence = in.readLong();
    e.samplingModulus = in.readLong();
    e.samplingThreshold = in.readLong();
    e.baseTimeUnixNano = in.readLong();
    e.consideredReferences = in.readLong();
    e.distinctBlocksHllPrecision = in.readInt();
    int updates = in.readInt();
    if (updates < 0) {
      throw new IOException("inconsistent reference batch state: " + updates + " sketch updates");
    }
    e.distinctBlocksHllUpdates = new int[updates];
    for (int i = 0; i < updates; i++) {
      e.distinctBlocksHllUpdates[i] = in.readInt();
    }
    int n = in.readInt();
    if (n < 0) {
      throw new IOException("inconsistent reference batch state: " + n + " references");
    }
    e.blockHashes = new long[n];
    e.writes = new boolean[n];
    e.lengthBlocks = new int[n];
    e.timeOffsetsMicros = new long[n];
    for (int i = 0; i < n; i++) {
      e.blockHashes[i] = in.readLong();
      e.writes[i] = in.readBoolean();
      e.lengthBlocks[i] = in.readInt();
      e.timeOffsetsMicros[i] = in.readLong();
    }
    return e;
  }
}
