package io.tierwise.jobs.workingset.pipeline;

import io.tierwise.jobs.workingset.estimate.BinaryStateSerializer;
import io.tierwise.jobs.workingset.estimate.IoProfile;
import io.tierwise.jobs.workingset.estimate.MrcEstimator;
import io.tierwise.jobs.workingset.estimate.MrcEstimators;
import io.tierwise.jobs.workingset.estimate.ShardsEstimator;
import io.tierwise.jobs.workingset.estimate.StreamTotals;
import io.tierwise.jobs.workingset.estimate.MiniatureBatch;
import io.tierwise.jobs.workingset.estimate.WindowShares;
import io.tierwise.jobs.workingset.estimate.WindowedEstimators;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.zip.CRC32C;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * One cluster's merged reference stream: a cluster's tier is shared by its hosts, so its working
 * set and MRC are those of its volumes' sampled streams merged in time order (DESIGN section 4;
 * issue 5). Fed each volume's batches in that volume's sequence order (as {@link
 * WorkingSetFunction} processes them), it releases references in time order across the volumes
 * into fixed-size SHARDS estimators over the windows of {@link WindowedEstimators}, with every
 * eviction policy simulated as for a volume (the shared tier runs one policy for all its volumes),
 * and into the merged I/O mix ({@link IoProfile}: each reference at its own agent's rate), from
 * which a shared tier is recommended as a volume's tier is.
 *
 * <p><b>Order.</b> A reference is released once every live volume of the cluster has sent batches
 * up to its time: {@link #watermark} is the earliest of the latest reference times of the volumes
 * that sent a batch within the idle timeout (processing time; one that has not does not hold the
 * others back, as Flink's idle sources do; when none has, everything queued may go), and {@link
 * #release} processes the queued references up to a time in time order (ties: the lower volume id,
 * so the order does not depend on which volume's batch came first). A batch that comes with
 * references before those released (a volume that joined or came back) is late: those references
 * are released at the released time, in their order, not dropped ({@link #offer}).
 *
 * <p><b>Blocks.</b> Two volumes' block {@code L} are different blocks of the shared tier, but have
 * the same {@code H(L)} (one tenant key). Each reference's key is {@code H(L) XOR (s << 24)},
 * {@code s} the CRC-32C (RFC 3720) of the volume id: the low 24 bits, which decide sampling
 * ({@code T_i = H(L) mod P}, {@code P} dividing {@code 2^24}), are unchanged, so each volume's
 * blocks are sampled as its agent sampled them, and blocks of different volumes differ in the bits
 * above. The threshold is the lowest of the agents' thresholds, as the sample must be one every
 * agent shipped. Stream totals: N adds up, and the distinct-block counts of the volumes' sketches
 * add up (their blocks are disjoint; {@link StreamTotals}).
 *
 * <p><b>Shares.</b> A host's agent sees its volumes' references in their true order and runs the
 * host's tier's windows itself (docs/analytics.md "Windows on the agent"): each volume's batch
 * carries its share, and {@link #addShares} adds them up as they come, with no queue, hold-back or
 * merge here. Not thread-safe.
 */
public final class ClusterStream implements BinaryStateSerializer.State<ClusterStream> {
  private static final int SAMPLING_BITS = 24;
  /**
   * 3: with each volume's time of its latest batch; 2 (read, not written): without, 1 (read, not
   * written): without the I/O mix and the policy simulations either.
   */
  private static final int STATE_FORMAT = 3;

  private static final class Volume {
    final int part;
    final long salt;
    final ArrayDeque<ReferenceBatchEvent> queued = new ArrayDeque<>();
    /** Next reference of the head batch. */
    int cursor;
    /** Whether the head batch's totals and threshold were counted. */
    boolean headCounted;
    /**
     * Time of the next reference to release, Unix epoch ns, or the released time if that is later
     * (a late batch's): {@link #release}'s order, set there.
     */
    long headTimeUnixNano;
    /** Time of the latest reference queued, Unix epoch ns; 0 before any. */
    long latestUnixNano;
    /** Processing time of the volume's latest batch, ms. */
    long lastOfferMillis;
    /** The head batch's sampling rate, once {@link #release} needed it (NaN: not yet; not state). */
    double headRate = Double.NaN;

    final String volumeId;

    Volume(int part, String volumeId) {
      this.part = part;
      this.volumeId = volumeId;
      CRC32C crc = new CRC32C();
      crc.update(volumeId.getBytes(StandardCharsets.UTF_8));
      this.salt = crc.getValue();
    }

    /** A copy of {@code from}: the same queued batches (never changed), its own cursor. */
    Volume(Volume from) {
      this.part = from.part;
      this.volumeId = from.volumeId;
      this.salt = from.salt;
      this.queued.addAll(from.queued);
      this.cursor = from.cursor;
      this.headCounted = from.headCounted;
      this.headTimeUnixNano = from.headTimeUnixNano;
      this.latestUnixNano = from.latestUnixNano;
      this.lastOfferMillis = from.lastOfferMillis;
      this.headRate = from.headRate;
    }
  }

  /**
   * Release order: the earlier next reference first; ties by volume id, not by arrival: the
   * volumes' batches come from different Kafka partitions and subtasks, so the order they were
   * first seen in is not reproducible.
   */
  private static final Comparator<Volume> HEAD_ORDER =
      Comparator.<Volume>comparingLong(v -> v.headTimeUnixNano).thenComparing(v -> v.volumeId);

  private final MrcEstimators factory;
  private final Map<String, Volume> volumes = new LinkedHashMap<>();
  private WindowedEstimators estimators;
  private IoProfile io = new IoProfile();
  private long releasedUnixNano;

  /**
   * An empty cluster stream.
   *
   * @param factory the estimators' method: fixed size (a cluster follows the lowest threshold)
   * @throws IllegalArgumentException when {@code factory} is fixed-rate
   */
  public ClusterStream(MrcEstimators factory) {
    requireFixedSize(factory);
    this.factory = factory;
  }

  /** @throws IllegalArgumentException unless {@code factory} is fixed-size SHARDS */
  static void requireFixedSize(MrcEstimators factory) {
    if (!factory.method().equals(MrcEstimator.METHOD_FIXED_SIZE)) {
      throw new IllegalArgumentException("a cluster's stream needs fixed-size SHARDS (it follows the lowest"
          + " threshold of its agents), got " + factory.method());
    }
  }

  /** The key of block hash {@code blockHash} of the volume with CRC-32C {@code salt} in the merged stream. */
  static long blockKey(long blockHash, long salt) {
    return blockHash ^ (salt << SAMPLING_BITS);
  }

  /**
   * Queues one volume's next batch (batches of a volume in its sequence order). A late batch, one
   * whose references start before references already released, is queued too: its references
   * before the released time are released at that time, in their order.
   *
   * <p>The tier's windows start again when they added up an agent's shares before ({@link #addShares}).
   *
   * @param nowMillis processing time, ms: the volume is live until the idle timeout after it
   * @return whether the batch is late
   * @throws IllegalArgumentException when the batch's {@code P} does not divide {@code 2^24} or
   *     differs from the cluster's, or its sketch precision differs from the cluster's (nothing is
   *     queued)
   */
  public boolean offer(ReferenceBatchEvent batch, long nowMillis) {
    check(batch);
    if (estimators != null && estimators.takesShares()) {
      restart();  // the host's agent no longer runs the tier's windows (downgraded)
    }
    if (estimators == null) {
      estimators = WindowedEstimators.withPolicies(factory, batch.samplingModulus, batch.samplingThreshold);
    }
    Volume v = volume(batch, nowMillis);
    v.queued.add(batch);
    return batch.size() > 0 && batch.referenceTimeUnixNano(0) < releasedUnixNano;
  }

  /**
   * Adds one volume's batch whose host's agent runs the tier's working-set windows ({@link
   * ReferenceBatchEvent#hostTierWorkingSet}, its volume's share of them): its shares, stream totals
   * and I/O mix at once, in any order across the volumes (they add up); nothing is queued. The
   * windows start again (and the volumes' queues are dropped) at the first such batch after
   * references were merged here, or at another sample of the agent's (it restarted without its
   * saved sample).
   *
   * @param nowMillis processing time, ms: the volume is live until the idle timeout after it
   * @throws IllegalArgumentException as {@link #offer} does (nothing is added), or when the batch
   *     has no host-tier shares
   */
  public void addShares(ReferenceBatchEvent batch, long nowMillis) {
    check(batch);
    WindowShares shares = batch.hostTierWorkingSet;
    if (shares == null) {
      throw new IllegalArgumentException("batch " + batch.batchId + " carries no shares of its host's tier");
    }
    if (estimators != null && !(estimators.takesShares() && estimators.accepts(shares))) {
      restart();
    }
    if (estimators == null) {
      estimators = WindowedEstimators.withPolicies(factory, batch.samplingModulus, batch.samplingThreshold);
    }
    Volume v = volume(batch, nowMillis);
    if (Long.compareUnsigned(batch.samplingThreshold, estimators.threshold()) < 0) {
      estimators.lowerThreshold(batch.samplingThreshold);
    }
    estimators.addStreamTotals(v.part, batch.consideredReferences, batch.distinctBlocksHllPrecision,
        batch.distinctBlocksHllUpdates);
    estimators.addShares(shares);
    batch.addIoMix(io);
  }

  /** Starts the tier's windows again, its volumes as new (their queues dropped). */
  private void restart() {
    estimators = null;
    volumes.clear();
    releasedUnixNano = 0;
  }

  /** {@code batch}'s volume, seen now, its latest reference time moved on. */
  private Volume volume(ReferenceBatchEvent batch, long nowMillis) {
    Volume v = volumes.computeIfAbsent(batch.volumeId, id -> new Volume(volumes.size(), id));
    v.lastOfferMillis = nowMillis;
    if (batch.sampledReferences() > 0) {
      v.latestUnixNano = Math.max(v.latestUnixNano, batch.lastReferenceUnixNano());
    }
    return v;
  }

  /**
   * @throws IllegalArgumentException when the batch's {@code P} does not divide {@code 2^24} or
   *     differs from the cluster's, or its sketch precision differs from the cluster's
   */
  private void check(ReferenceBatchEvent batch) {
    if (Long.remainderUnsigned(1L << SAMPLING_BITS, batch.samplingModulus) != 0) {
      throw new IllegalArgumentException("volume " + batch.volumeId + " samples with P = "
          + Long.toUnsignedString(batch.samplingModulus) + ", which does not divide 2^" + SAMPLING_BITS
          + " (the bits a cluster's block keys keep)");
    }
    if (estimators != null && estimators.modulus() != batch.samplingModulus) {
      throw new IllegalArgumentException("volume " + batch.volumeId + " samples with P = "
          + Long.toUnsignedString(batch.samplingModulus) + ", the cluster with P = "
          + Long.toUnsignedString(estimators.modulus()));
    }
    int precision = estimators == null ? 0 : estimators.all().sketchPrecision();
    if (precision != 0 && batch.distinctBlocksHllPrecision != 0 && batch.distinctBlocksHllPrecision != precision) {
      throw new IllegalArgumentException("volume " + batch.volumeId + " sends a distinct-block sketch of p = "
          + batch.distinctBlocksHllPrecision + ", the cluster's is p = " + precision);
    }
  }

  /**
   * Adds the agent's simulations of the shared tier over one of its batches ({@link
   * ReferenceBatchEvent#hostTier}: a host's agent simulates the tier its volumes share), in any
   * order (the counts add up); from then on the tier's policy differences are the agent's
   * ({@link WindowedEstimators#addAgentSimulations}). Call after {@link #offer} of that batch.
   */
  public void addAgentSimulations(MiniatureBatch counts) {
    estimators.addAgentSimulations(counts);
  }

  /**
   * The earliest of the live volumes' latest queued reference times, Unix epoch ns: those whose
   * latest batch came less than {@code idleMillis} before {@code nowMillis}; {@link Long#MAX_VALUE}
   * when none is live (everything queued may go), 0 before any batch.
   */
  public long watermark(long nowMillis, long idleMillis) {
    long w = Long.MAX_VALUE;
    for (Volume v : volumes.values()) {
      if (v.lastOfferMillis > nowMillis - idleMillis) {
        w = Math.min(w, v.latestUnixNano);
      }
    }
    return volumes.isEmpty() ? 0 : w;
  }

  /**
   * Processes the queued references with times up to {@code untilUnixNano}, in time order
   * across the volumes; a batch's stream totals and threshold count when its first reference is
   * released (an empty batch's at once).
   *
   * @return the references released
   */
  public long release(long untilUnixNano) {
    // The volumes with a reference queued, earliest head first. The earliest releases its
    // references while it stays the earliest (an I/O of several blocks is several references of
    // one time): O(log V) per run of one volume's references, not per reference.
    PriorityQueue<Volume> heads = new PriorityQueue<>(Math.max(1, volumes.size()), HEAD_ORDER);
    for (Volume v : volumes.values()) {
      if (nextHead(v)) {
        heads.add(v);
      }
    }
    long released = 0;
    Volume next;
    while ((next = heads.poll()) != null) {
      do {
        if (next.headTimeUnixNano > untilUnixNano) {
          return released;
        }
        releaseHead(next);
        released++;
        if (!nextHead(next)) {
          break;
        }
        Volume other = heads.peek();
        if (other != null && HEAD_ORDER.compare(next, other) > 0) {
          heads.add(next);
          break;
        }
      } while (true);
    }
    return released;
  }

  /** Processes {@code v}'s next reference at its head time and moves past it. */
  private void releaseHead(Volume v) {
    ReferenceBatchEvent head = v.queued.peek();
    long time = v.headTimeUnixNano;
    if (Double.isNaN(v.headRate)) {
      v.headRate = ShardsEstimator.samplingRate(head.samplingModulus, head.samplingThreshold);
    }
    estimators.reference(blockKey(head.blockHashes[v.cursor], v.salt), head.writes[v.cursor], time);
    io.add(head.writes[v.cursor], head.lengthBlocks[v.cursor], v.headRate, time);
    releasedUnixNano = time;
    if (++v.cursor == head.size()) {
      v.queued.poll();
      v.cursor = 0;
      v.headCounted = false;
      v.headRate = Double.NaN;
    }
  }

  /**
   * Sets {@code v}'s head time to its next reference's (or the released time, if later); false
   * when it has none queued.
   */
  private boolean nextHead(Volume v) {
    ReferenceBatchEvent head = startHead(v);
    if (head == null) {
      return false;
    }
    v.headTimeUnixNano = Math.max(head.referenceTimeUnixNano(v.cursor), releasedUnixNano);
    return true;
  }

  /**
   * The volume's head batch with a reference to release, after counting the totals and the
   * threshold of every batch reached (empty batches are consumed here); null when none is queued.
   */
  private ReferenceBatchEvent startHead(Volume v) {
    ReferenceBatchEvent head;
    while ((head = v.queued.peek()) != null && !v.headCounted) {
      if (Long.compareUnsigned(head.samplingThreshold, estimators.threshold()) < 0) {
        estimators.lowerThreshold(head.samplingThreshold);
      }
      estimators.addStreamTotals(v.part, head.consideredReferences, head.distinctBlocksHllPrecision,
          head.distinctBlocksHllUpdates);
      if (head.size() > 0) {
        v.headCounted = true;
      } else {
        v.queued.poll();
      }
    }
    return head;
  }

  /** The cluster's estimators (null before the first batch). */
  public WindowedEstimators estimators() {
    return estimators;
  }

  /** The I/O mix of the references released. */
  public IoProfile io() {
    return io;
  }

  /** The volumes seen, in the order they were first seen. */
  public List<String> volumeIds() {
    return new ArrayList<>(volumes.keySet());
  }

  /** Volumes seen. */
  public int volumeCount() {
    return volumes.size();
  }

  /**
   * Bytes of the serialised state ({@link #writeTo}) without writing it: the estimators'
   * ({@link WindowedEstimators#stateBytes}) and the queued batches' ({@link ReferenceBatchEvent#stateBytes}).
   */
  public long stateBytes() {
    long bytes = estimators == null ? 0 : estimators.stateBytes();
    for (Volume v : volumes.values()) {
      for (ReferenceBatchEvent b : v.queued) {
        bytes += b.stateBytes();
      }
    }
    return bytes;
  }

  /**
   * An independent copy: the estimators and the I/O mix deep, the queued batches shared (a queued
   * batch is never changed; each volume's cursor is its own).
   */
  @Override
  public ClusterStream copy() {
    ClusterStream c = new ClusterStream(factory);
    c.estimators = estimators == null ? null : estimators.copy();
    c.io = io.copy();
    c.releasedUnixNano = releasedUnixNano;
    for (Volume v : volumes.values()) {
      c.volumes.put(v.volumeId, new Volume(v));
    }
    return c;
  }

  /**
   * Writes format, method, the released time, the estimators, the I/O mix and each volume's
   * queue and time of its latest batch.
   */
  @Override
  public void writeTo(DataOutputView out) throws IOException {
    out.writeInt(STATE_FORMAT);
    out.writeUTF(factory.method());
    out.writeInt(factory.maxSamples());
    out.writeLong(releasedUnixNano);
    out.writeBoolean(estimators != null);
    if (estimators != null) {
      estimators.writeTo(out);
    }
    for (double[] values : List.of(io.readOps, io.writeOps, io.readBytes, io.writeBytes)) {
      for (double v : values) {
        out.writeDouble(v);
      }
    }
    out.writeLong(io.firstUnixNano);
    out.writeLong(io.lastUnixNano);
    out.writeInt(volumes.size());
    for (Volume v : volumes.values()) {
      out.writeUTF(v.volumeId);
      out.writeInt(v.cursor);
      out.writeBoolean(v.headCounted);
      out.writeLong(v.latestUnixNano);
      out.writeLong(v.lastOfferMillis);
      out.writeInt(v.queued.size());
      for (ReferenceBatchEvent b : v.queued) {
        b.writeTo(out);
      }
    }
  }

  /**
   * Reads a state written by {@link #writeTo}; a volume of a format before 3 counts as live from
   * the read (its latest batch's time was not kept).
   *
   * @throws IOException on a read error, another format or an inconsistent state
   */
  static ClusterStream readFrom(DataInputView in) throws IOException {
    int format = in.readInt();
    if (format < 1 || format > STATE_FORMAT) {
      throw new IOException("cluster stream state format " + format + " is not 1 to " + STATE_FORMAT);
    }
    ClusterStream c;
    try {
      c = new ClusterStream(new MrcEstimators(in.readUTF(), in.readInt()));
    } catch (IllegalArgumentException e) {
      throw new IOException("inconsistent cluster stream state: " + e.getMessage(), e);
    }
    c.releasedUnixNano = in.readLong();
    c.estimators = in.readBoolean() ? WindowedEstimators.readFrom(in) : null;
    if (format >= 2) {
      for (double[] values : List.of(c.io.readOps, c.io.writeOps, c.io.readBytes, c.io.writeBytes)) {
        for (int i = 0; i < values.length; i++) {
          values[i] = in.readDouble();
        }
      }
      c.io.firstUnixNano = in.readLong();
      c.io.lastUnixNano = in.readLong();
    }
    int count = in.readInt();
    for (int i = 0; i < count; i++) {
      Volume v = new Volume(i, in.readUTF());
      v.cursor = in.readInt();
      v.headCounted = in.readBoolean();
      v.latestUnixNano = in.readLong();
      v.lastOfferMillis = format >= 3 ? in.readLong() : System.currentTimeMillis();
      int queued = in.readInt();
      for (int q = 0; q < queued; q++) {
        v.queued.add(ReferenceBatchEvent.readFrom(in));
      }
      c.volumes.put(v.volumeId, v);
    }
    return c;
  }
}
