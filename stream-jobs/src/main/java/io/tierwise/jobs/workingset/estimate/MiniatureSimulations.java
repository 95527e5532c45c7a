package io.tierwise.jobs.workingset.estimate;

import io.tierwise.jobs.workingset.estimate.eviction.EvictionPolicy;
import io.tierwise.jobs.workingset.estimate.eviction.SimulatedCache;
import io.tierwise.jobs.workingset.estimate.eviction.UnfilledCaches;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongPredicate;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Miniature simulations (C. A. Waldspurger, T. Saemundsson, I. Ahmad and N. Park, "Cache Modeling
 * and Optimization using Miniature Simulations", USENIX ATC 2017): the miss ratio curve of each
 * eviction policy of the agent's cache engine, from the SHARDS-sampled 4 KiB block references of
 * one stream. Each policy is simulated by its Java mirror ({@link EvictionPolicy}), at each cache
 * size {@code C} blocks of a fixed grid, on the references whose block is sampled at a rate
 * {@code R_C}, in a cache of {@code C x R_C} blocks (section 3: a cache scaled down by the
 * sampling rate sees the sampled stream as the full cache sees the full stream).
 *
 * <p><b>A rate per size.</b> {@code R_C = min(R_agent, maxBlocks / C)}: every miniature cache holds
 * at most {@code maxBlocks} blocks, so memory is bounded whatever the footprint (as fixed-size
 * SHARDS bounds its sample), while small sizes are simulated at the agent's full rate, exactly when
 * the agent sends every reference. A block is in size {@code C}'s sample while
 * {@code H mod P < T_C}, {@code T_C = R_C x P}; the samples are nested, as in SHARDS. When the
 * agent lowers its threshold below {@code T_C} (its own sample is bounded), {@code T_C} falls to
 * {@value #LOWERING_NUMERATOR}/{@value #LOWERING_DENOMINATOR} of the agent's so that lowerings come
 * in steps, not per batch; the blocks that leave the sample are forgotten by every cache (resident
 * and ghost entries) and the caches shrink to the new {@code C x R_C}.
 *
 * <p><b>Counting.</b> A sampled reference taken at rate {@code R} stands for {@code 1 / R}
 * references (SHARDS section 4.2's rescaling, expressed at rate 1); the miniature miss ratio at
 * {@code C} is the weight of its misses over the weight of its references, for all references and
 * for the reads alone.
 *
 * <p><b>The curve.</b> The policies at one size see the same sampled blocks, so their sampling
 * errors are strongly correlated: {@link #missRatios} reports the SHARDS LRU curve (the more
 * accurate estimate, anchored and normalised by the agent's stream totals) plus each policy's
 * miniature difference from miniature LRU, a control variate (Cochran, "Sampling Techniques",
 * 3rd ed., 1977, section 7.2, the difference estimator). Where no eviction has happened at a
 * size, every policy's cache holds the same blocks and the difference is exactly 0.
 *
 * <p><b>Unfilled sizes.</b> Until a size's caches are full, no policy has evicted, so they hold the
 * same blocks and every reference hits or misses in all of them: an {@link UnfilledCaches} table
 * answers for all, and the policies' caches are built from it at the first miss that finds it
 * full (or a lowered threshold that shrinks it below its blocks), in the state the references
 * would have left them in. A small stream's large sizes never fill: they cost one table lookup
 * per reference instead of one per policy.
 *
 * <p>Accuracy against the engine's exact curves on the real traces: docs/analytics.md "Every
 * policy's miss ratio curve". Not thread-safe.
 */
public final class MiniatureSimulations implements PolicySimulations {
  /** Bytes per block: the unit of the caches (DESIGN section 3). */
  public static final int BLOCK_BYTES = 4096;
  /** The most blocks one miniature cache holds, the job's default. */
  public static final int DEFAULT_MAX_BLOCKS = 512;
  /** The sampled threshold falls to this fraction of the agent's when the agent's falls below it. */
  static final int LOWERING_NUMERATOR = 7;
  static final int LOWERING_DENOMINATOR = 8;
  /** {@link #writeTo}'s layout: 2 with unfilled sizes; 1 (read, not written): every size's caches. */
  private static final int STATE_FORMAT = 2;
  /** A size's state in format 2: no block sampled yet, its unfilled table, its policies' caches. */
  private static final byte NEW = 0;
  private static final byte UNFILLED = 1;
  private static final byte CACHES = 2;

  /** One cache size of the grid: its sample and one miniature cache per policy. */
  private static final class Size {
    final long blocks;
    /** {@code maxBlocks / C} as a threshold: the highest {@code T_C} this size ever uses. */
    final long ceiling;
    long threshold;
    double rate;
    /**
     * Every policy's cache while none has evicted; null before the size's first sampled reference
     * (most sizes of a small volume never sample a block) and once {@link #caches} are built.
     */
    UnfilledCaches unfilled;
    /** One cache per policy, from {@link #unfilled} once it filled; null until then. */
    SimulatedCache[] caches;
    double references;
    double readReferences;
    final double[] misses;
    final double[] readMisses;

    Size(long blocks, long ceiling, int policies) {
      this.blocks = blocks;
      this.ceiling = ceiling;
      this.misses = new double[policies];
      this.readMisses = new double[policies];
    }
  }

  private final long modulus;
  private final long[] cacheBytes;
  private final int maxBlocks;
  private final List<EvictionPolicy> policies;
  private final int lru;
  private final Size[] sizes;

  /**
   * Empty simulations.
   *
   * @param policies the policies to simulate; must include {@link EvictionPolicy#LRU}, the control
   *     variate
   * @param cacheBytes the cache sizes, bytes, strictly increasing, each at least one block
   * @param modulus the agent's {@code P} (unsigned, &gt; 0)
   * @param agentThreshold the agent's {@code T} now (unsigned, 0 &lt; T &le; P)
   * @param maxBlocks the most blocks one miniature cache holds, &ge; 1
   * @throws IllegalArgumentException when an argument is outside those bounds
   */
  public MiniatureSimulations(List<EvictionPolicy> policies, long[] cacheBytes, long modulus,
      long agentThreshold, int maxBlocks) {
    if (!policies.contains(EvictionPolicy.LRU)) {
      throw new IllegalArgumentException("miniature simulations need LRU, their control variate; got " + policies);
    }
    if (maxBlocks < 1) {
      throw new IllegalArgumentException("a miniature cache needs at least 1 block, got " + maxBlocks);
    }
    checkThreshold(modulus, agentThreshold);
    this.modulus = modulus;
    this.cacheBytes = cacheBytes.clone();
    this.maxBlocks = maxBlocks;
    this.policies = List.copyOf(policies);
    this.lru = this.policies.indexOf(EvictionPolicy.LRU);
    this.sizes = new Size[cacheBytes.length];
    for (int i = 0; i < cacheBytes.length; i++) {
      long blocks = cacheBytes[i] / BLOCK_BYTES;
      if (blocks < 1 || (i > 0 && cacheBytes[i] <= cacheBytes[i - 1])) {
        throw new IllegalArgumentException("cache sizes must increase from one block: " + Arrays.toString(cacheBytes));
      }
      Size s = new Size(blocks, threshold(Math.min(1.0, (double) maxBlocks / blocks)), this.policies.size());
      s.threshold = minUnsigned(s.ceiling, agentThreshold);
      s.rate = rate(s.threshold);
      sizes[i] = s;
    }
  }

  /** The policies simulated, in the order given. */
  public List<EvictionPolicy> policies() {
    return policies;
  }

  /** The grid, bytes (a copy). */
  public long[] cacheBytes() {
    return cacheBytes.clone();
  }

  /**
   * Follows the agent's threshold (unsigned): call it with each batch's {@code T}, before its
   * references. No effect unless it is below a size's {@code T_C}.
   *
   * @throws IllegalArgumentException when {@code T = 0} or {@code T > P}
   */
  public void followAgentThreshold(long agentThreshold) {
    checkThreshold(modulus, agentThreshold);
    for (Size s : sizes) {
      if (Long.compareUnsigned(agentThreshold, s.threshold) >= 0) {
        continue;
      }
      long stepped = Long.divideUnsigned(agentThreshold, LOWERING_DENOMINATOR) * LOWERING_NUMERATOR;
      long lowered = minUnsigned(s.ceiling, stepped == 0 ? agentThreshold : stepped);
      s.threshold = lowered;
      s.rate = rate(lowered);
      LongPredicate left = hash -> Long.compareUnsigned(Long.remainderUnsigned(hash, modulus), lowered) >= 0;
      if (s.unfilled != null) {
        s.unfilled.removeIf(left);
        if (s.unfilled.size() <= capacity(s)) {
          s.unfilled.resize(capacity(s));
          continue;
        }
        fill(s);  // the shrink evicts: each policy its own victims
      }
      if (s.caches != null) {
        for (SimulatedCache cache : s.caches) {
          cache.removeIf(left);
          cache.resize(capacity(s));
        }
        SimulatedCache.share(s.caches);
      }
    }
  }

  /**
   * One sampled reference, in time order.
   *
   * @param blockHash {@code H(L)} of the 4 KiB block referenced
   * @param write true for a write, false for a read
   */
  public void reference(long blockHash, boolean write) {
    long priority = Long.remainderUnsigned(blockHash, modulus);
    for (Size s : sizes) {
      if (Long.compareUnsigned(priority, s.threshold) >= 0) {
        continue;
      }
      double weight = 1 / s.rate;
      s.references += weight;
      if (!write) {
        s.readReferences += weight;
      }
      if (s.caches == null) {
        if (s.unfilled == null) {
          s.unfilled = new UnfilledCaches(capacity(s));
        }
        int outcome = s.unfilled.access(blockHash);
        if (outcome != UnfilledCaches.FULL) {
          if (outcome == UnfilledCaches.MISS) {
            for (int p = 0; p < s.misses.length; p++) {
              s.misses[p] += weight;
              if (!write) {
                s.readMisses[p] += weight;
              }
            }
          }
          continue;
        }
        fill(s);
      }
      for (int p = 0; p < s.caches.length; p++) {
        if (!s.caches[p].access(blockHash)) {
          s.misses[p] += weight;
          if (!write) {
            s.readMisses[p] += weight;
          }
        }
      }
    }
  }

  /** Builds size {@code s}'s caches from its unfilled table (see the class doc). */
  private void fill(Size s) {
    s.caches = s.unfilled.materialize(policies);
    SimulatedCache.share(s.caches);
    s.unfilled = null;
  }

  /**
   * The miniature miss ratios of one policy over the grid, all references or reads only; NaN at a
   * size whose sample saw no reference (or no read) yet.
   *
   * @throws IllegalArgumentException when the policy is not simulated
   */
  public double[] miniatureMissRatios(EvictionPolicy policy, boolean readsOnly) {
    int p = indexOf(policy);
    double[] out = new double[sizes.length];
    for (int i = 0; i < sizes.length; i++) {
      Size s = sizes[i];
      double references = readsOnly ? s.readReferences : s.references;
      out[i] = references == 0 ? Double.NaN : (readsOnly ? s.readMisses[p] : s.misses[p]) / references;
    }
    return out;
  }

  /**
   * A policy's estimated miss ratios over the grid: {@code lruMissRatios} (the SHARDS LRU curve at
   * the same sizes) plus the policy's miniature miss ratio less miniature LRU's (the control
   * variate), clipped to [0, 1]; where a size saw no sampled reference yet, the LRU value.
   *
   * @param lruMissRatios the LRU miss ratios at {@link #cacheBytes}, each in [0, 1]
   * @param readsOnly the reads' curve (then {@code lruMissRatios} must be the reads' too)
   * @throws IllegalArgumentException when the policy is not simulated or the lengths differ
   */
  public double[] missRatios(EvictionPolicy policy, double[] lruMissRatios, boolean readsOnly) {
    if (lruMissRatios.length != sizes.length) {
      throw new IllegalArgumentException("need " + sizes.length + " LRU miss ratios, got " + lruMissRatios.length);
    }
    int p = indexOf(policy);
    double[] out = new double[sizes.length];
    for (int i = 0; i < sizes.length; i++) {
      out[i] = Math.min(1, Math.max(0, lruMissRatios[i] + difference(p, i, readsOnly)));
    }
    return out;
  }

  /**
   * The policy's miniature miss ratio less miniature LRU's at {@code cacheBytes}: what the policy
   * adds to the LRU curve there ({@link #missRatios}). Between two sizes of the grid, interpolated
   * linearly in the logarithm of the size; below the first, the first size's; above the last, 0
   * (no simulated cache evicts there); 0 where a size saw no sampled reference yet.
   *
   * @throws IllegalArgumentException when the policy is not simulated or {@code cacheBytes < 1}
   */
  public double difference(EvictionPolicy policy, long cacheBytes, boolean readsOnly) {
    int p = indexOf(policy);
    return EvictionDifferences.interpolate(this.cacheBytes, cacheBytes, i -> difference(p, i, readsOnly));
  }

  /** Every policy's difference from LRU at each size of the grid ({@link #difference}), apart from the caches. */
  public EvictionDifferences differences() {
    EvictionDifferences d = new EvictionDifferences();
    d.policies = policies.stream().map(EvictionPolicy::name).toArray(String[]::new);
    d.cacheBytes = cacheBytes.clone();
    d.differences = new double[policies.size()][sizes.length];
    d.readDifferences = new double[policies.size()][sizes.length];
    for (int p = 0; p < policies.size(); p++) {
      for (int i = 0; i < sizes.length; i++) {
        d.differences[p][i] = difference(p, i, false);
        d.readDifferences[p][i] = difference(p, i, true);
      }
    }
    return d;
  }

  private double difference(int p, int i, boolean readsOnly) {
    Size s = sizes[i];
    double references = readsOnly ? s.readReferences : s.references;
    if (references == 0) {
      return 0;
    }
    return ((readsOnly ? s.readMisses[p] : s.misses[p]) - (readsOnly ? s.readMisses[lru] : s.misses[lru])) / references;
  }

  /** An independent deep copy. */
  public MiniatureSimulations copy() {
    MiniatureSimulations c = new MiniatureSimulations(modulus, cacheBytes, maxBlocks, policies, new Size[sizes.length]);
    for (int i = 0; i < sizes.length; i++) {
      Size s = sizes[i];
      Size t = new Size(s.blocks, s.ceiling, s.misses.length);
      t.threshold = s.threshold;
      t.rate = s.rate;
      t.references = s.references;
      t.readReferences = s.readReferences;
      System.arraycopy(s.misses, 0, t.misses, 0, s.misses.length);
      System.arraycopy(s.readMisses, 0, t.readMisses, 0, s.readMisses.length);
      if (s.unfilled != null) {
        t.unfilled = s.unfilled.copy();
      }
      if (s.caches != null) {
        t.caches = SimulatedCache.copyAll(s.caches);
      }
      c.sizes[i] = t;
    }
    return c;
  }

  private MiniatureSimulations(long modulus, long[] cacheBytes, int maxBlocks, List<EvictionPolicy> policies, Size[] sizes) {
    this.modulus = modulus;
    this.cacheBytes = cacheBytes;
    this.maxBlocks = maxBlocks;
    this.policies = policies;
    this.lru = policies.indexOf(EvictionPolicy.LRU);
    this.sizes = sizes;
  }

  /**
   * Writes the state: format, P, the bound, the policies, and per size its sample, counts, and
   * whether it has sampled no block, its unfilled table or its caches, with that state.
   */
  public void writeTo(DataOutputView out) throws IOException {
    out.writeInt(STATE_FORMAT);
    out.writeLong(modulus);
    out.writeInt(maxBlocks);
    out.writeInt(policies.size());
    for (EvictionPolicy p : policies) {
      out.writeUTF(p.wireName());
    }
    out.writeInt(sizes.length);
    for (int i = 0; i < sizes.length; i++) {
      Size s = sizes[i];
      out.writeLong(cacheBytes[i]);
      out.writeLong(s.threshold);
      out.writeDouble(s.references);
      out.writeDouble(s.readReferences);
      for (int p = 0; p < s.misses.length; p++) {
        out.writeDouble(s.misses[p]);
        out.writeDouble(s.readMisses[p]);
      }
      if (s.caches != null) {
        out.writeByte(CACHES);
        for (SimulatedCache cache : s.caches) {
          cache.writeTo(out);
        }
      } else if (s.unfilled != null) {
        out.writeByte(UNFILLED);
        s.unfilled.writeTo(out);
      } else {
        out.writeByte(NEW);
      }
    }
  }

  /**
   * Reads a state written by {@link #writeTo}, or by the job before unfilled sizes (format 1:
   * every size's caches, kept as they are).
   *
   * @throws IOException on a read error, another format or an inconsistent state
   */
  public static MiniatureSimulations readFrom(DataInputView in) throws IOException {
    int format = in.readInt();
    if (format != STATE_FORMAT && format != 1) {
      throw new IOException("miniature simulations state format " + format + " is not " + STATE_FORMAT);
    }
    try {
      long modulus = in.readLong();
      int maxBlocks = in.readInt();
      List<EvictionPolicy> policies = new ArrayList<>();
      for (int n = in.readInt(); n > 0; n--) {
        policies.add(EvictionPolicy.parse(in.readUTF()));
      }
      int count = in.readInt();
      long[] cacheBytes = new long[count];
      Size[] sizes = new Size[count];
      MiniatureSimulations m = new MiniatureSimulations(modulus, cacheBytes, maxBlocks, List.copyOf(policies), sizes);
      for (int i = 0; i < count; i++) {
        cacheBytes[i] = in.readLong();
        long blocks = cacheBytes[i] / BLOCK_BYTES;
        Size s = new Size(blocks, m.threshold(Math.min(1.0, (double) maxBlocks / blocks)), policies.size());
        s.threshold = in.readLong();
        checkThreshold(modulus, s.threshold);
        s.rate = m.rate(s.threshold);
        s.references = in.readDouble();
        s.readReferences = in.readDouble();
        if (format == 1) {
          s.caches = new SimulatedCache[policies.size()];
          for (int p = 0; p < s.caches.length; p++) {
            s.misses[p] = in.readDouble();
            s.readMisses[p] = in.readDouble();
            s.caches[p] = readCache(in, policies.get(p), i);
          }
          if (s.references == 0) {
            s.caches = null; // never sampled a block: made when one comes
          } else {
            SimulatedCache.share(s.caches);
          }
        } else {
          for (int p = 0; p < s.misses.length; p++) {
            s.misses[p] = in.readDouble();
            s.readMisses[p] = in.readDouble();
          }
          byte state = in.readByte();
          if (state == UNFILLED) {
            s.unfilled = UnfilledCaches.readFrom(in);
          } else if (state == CACHES) {
            s.caches = new SimulatedCache[policies.size()];
            for (int p = 0; p < s.caches.length; p++) {
              s.caches[p] = readCache(in, policies.get(p), i);
            }
            SimulatedCache.share(s.caches);
          } else if (state != NEW) {
            throw new IOException("miniature simulations size " + i + " in unknown state " + state);
          }
        }
        sizes[i] = s;
      }
      if (m.lru < 0) {
        throw new IOException("miniature simulations state without LRU");
      }
      return m;
    } catch (IllegalArgumentException e) {
      throw new IOException("inconsistent miniature simulations state: " + e.getMessage(), e);
    }
  }

  /** One policy's cache of size {@code i}, which must run {@code policy}. */
  private static SimulatedCache readCache(DataInputView in, EvictionPolicy policy, int i) throws IOException {
    SimulatedCache cache = SimulatedCache.readFrom(in);
    if (cache.policy() != policy) {
      throw new IOException("miniature cache of size " + i + " runs " + cache.policy() + ", not " + policy);
    }
    return cache;
  }

  /** Bytes {@link #writeTo} writes: the checkpoint cost of the simulations. */
  public long serializedBytes() {
    long bytes = Integer.BYTES + Long.BYTES + 2L * Integer.BYTES + Integer.BYTES;
    for (EvictionPolicy p : policies) {
      bytes += 2 + p.wireName().length();
    }
    for (Size s : sizes) {
      bytes += 2L * Long.BYTES + 2L * Double.BYTES + 2L * Double.BYTES * s.misses.length + 1;
      if (s.caches != null) {
        for (SimulatedCache cache : s.caches) {
          bytes += cache.serializedBytes();
        }
      } else if (s.unfilled != null) {
        bytes += s.unfilled.serializedBytes();
      }
    }
    return bytes;
  }

  /** Bytes on the heap of every miniature cache (resident and ghost entries), unfilled table and the counters. */
  public long stateBytes() {
    long bytes = 0;
    for (Size s : sizes) {
      if (s.caches != null) {
        for (SimulatedCache cache : s.caches) {
          bytes += cache.stateBytes();
        }
      } else if (s.unfilled != null) {
        bytes += s.unfilled.stateBytes();
      }
      bytes += 8 * (3 + 2L * s.misses.length);
    }
    return bytes;
  }

  /** The sampling rate of the size at index {@code i} now, {@code T_C / P}. */
  public double rate(int i) {
    return sizes[i].rate;
  }

  private int indexOf(EvictionPolicy policy) {
    int p = policies.indexOf(policy);
    if (p < 0) {
      throw new IllegalArgumentException(policy + " is not simulated; these are: " + policies);
    }
    return p;
  }

  /** {@code max(1, round(C x R_C))}: the miniature cache of size {@code s}. */
  private static int capacity(Size s) {
    return (int) Math.max(1, Math.round(s.blocks * s.rate));
  }

  private long threshold(double rate) {
    double t = Math.floor(rate * SamplingRate.unsignedToDouble(modulus));
    return t >= SamplingRate.unsignedToDouble(modulus) ? modulus : Math.max(1, (long) t);
  }

  private double rate(long threshold) {
    return SamplingRate.of(modulus, threshold);
  }

  private static long minUnsigned(long a, long b) {
    return Long.compareUnsigned(a, b) <= 0 ? a : b;
  }

  private static void checkThreshold(long modulus, long threshold) {
    SamplingRate.of(modulus, threshold);
  }
}
