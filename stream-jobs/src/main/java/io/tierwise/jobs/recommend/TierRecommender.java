package io.tierwise.jobs.recommend;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import io.tierwise.jobs.json.Json;
import io.tierwise.jobs.metrics.IoLengthBins;
import io.tierwise.jobs.metrics.MeasuredLatency;
import io.tierwise.jobs.workingset.estimate.EvictionDifferences;
import io.tierwise.jobs.workingset.estimate.IoProfile;
import io.tierwise.jobs.workingset.estimate.MissRatioCurve;
import io.tierwise.jobs.workingset.estimate.MissRatioFunction;
import io.tierwise.jobs.workingset.estimate.MrcEstimate;
import io.tierwise.jobs.workingset.estimate.WindowEstimate;
import io.tierwise.jobs.workingset.estimate.WindowedEstimators;
import io.tierwise.jobs.workingset.estimate.eviction.EvictionPolicy;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.LongToDoubleFunction;

/**
 * The tier recommendation of DESIGN section 4 for one volume (or a cluster's shared tier, from
 * its merged stream), from its miss ratio curves over one window and its I/O mix ({@link IoProfile}).
 *
 * <ol>
 *   <li>policy: write-back (with {@value #WRITE_BACK_REPLICAS} peer replica, "WB+1", so an
 *       acknowledged write survives the loss of one host) when writes are more than
 *       {@value #WRITE_BACK_ABOVE_WRITE_SHARE} of I/Os, or when writes cause more than
 *       {@value #WRITE_BACK_ABOVE_WRITE_LATENCY_SHARE} of the VM-observed latency, and only when
 *       write-back makes the writes faster over all size bins: a write-back write waits for its
 *       peer replica, so a slow replica interconnect can make it slower than the datastore
 *       ({@link Interconnect}, which also names the bins where the link is the bottleneck and the
 *       link speed that would change it); otherwise write-through (clean data, no replica);
 *   <li>the curve that matters: a write-through tier serves reads only, so the MRC of the reads;
 *       a write-back tier also absorbs writes, so the MRC of all references;
 *   <li>achievable hit ratio {@code a} = that curve's hit ratio at its largest size (at least twice
 *       the working set: only cold misses remain); target = {@value #TARGET_FRACTION} x {@code a};
 *       required size = the smallest MRC size at which some eviction policy's curve (each policy's
 *       miniature simulation: {@link WindowedEstimators#evictionMissRatio}; LRU alone without them)
 *       reaches the target;
 *   <li>eviction policy: the one with the highest predicted hit ratio at the recommended size; the
 *       engine's default ({@link EvictionPolicy#ENGINE_DEFAULT}) when it is within
 *       {@value #DEFAULT_EVICTION_TIE} of that;
 *   <li>media and size: RAM, rounded up to a multiple of 256 MiB, when that is at most 4 GiB and
 *       reads are at least {@value #READ_HEAVY_SHARE} of I/Os; otherwise NVMe, rounded up to a
 *       multiple of 1 GiB;
 *   <li>predictions at the recommended size: hit ratio (1 - miss ratio of the curve), offloaded
 *       I/Os and bytes per second (hits never reach the datastore), and the mean VM-observed
 *       latency ({@link TierEffect}, with the same for every size and policy of the curve:
 *       {@code inputs.what_if});
 *   <li>bytes written to the tier per day, per eviction policy ({@link TierWrites}: flash
 *       endurance); for an NVMe tier the explanation gives the drive writes per day of a device of
 *       the tier's size.
 * </ol>
 *
 * No recommendation from fewer than {@value #MIN_SAMPLED_REFERENCES} sampled references, or when
 * an unlimited tier would serve less than {@value #MIN_ACHIEVABLE_HIT_RATIO} of what it sees
 * (almost no block is re-referenced: no tier would help).
 *
 * <p>Hysteresis (docs/analytics.md "The closed loop"): the recommendation in force ({@code held}:
 * the last one passed on) stays, with its size, media and eviction policy, while its prediction
 * holds: the same write policy, its hit ratio on today's curves within {@value #HOLD_HIT_RATIO_TOLERANCE}
 * of what it predicted, and today's required tier more than half its size. So an applied
 * recommendation is not replaced by one a grid step away each time the window moves.
 */
public final class TierRecommender {
  /** Target = this fraction of the achievable hit ratio (DESIGN section 4). */
  public static final double TARGET_FRACTION = 0.9;
  /** RAM tiers are sized in multiples of 256 MiB. */
  public static final long RAM_STEP_BYTES = 256L << 20;
  /** RAM is recommended only up to 4 GiB. */
  public static final long RAM_MAX_BYTES = 4L << 30;
  /** NVMe tiers are sized in multiples of 1 GiB. */
  public static final long NVME_STEP_BYTES = 1L << 30;
  /** A volume is read-heavy when at least this share of its I/Os are reads (the 70/30 mix). */
  public static final double READ_HEAVY_SHARE = 0.7;
  /** Write-back when the write share of I/Os exceeds this. */
  public static final double WRITE_BACK_ABOVE_WRITE_SHARE = 0.5;
  /** Write-back when writes cause more than this share of the VM-observed latency. */
  public static final double WRITE_BACK_ABOVE_WRITE_LATENCY_SHARE = 0.5;
  /** Peer replicas of a write-back tier. */
  public static final int WRITE_BACK_REPLICAS = 1;
  /** I/Os of this size and larger are "large" in explanations, bytes. */
  public static final long LARGE_IO_BYTES = 64 * 1024;
  /**
   * Below this achievable hit ratio no tier is worth its cost: almost every reference is a first
   * reference (e.g. a volume that only writes new blocks).
   */
  public static final double MIN_ACHIEVABLE_HIT_RATIO = 0.05;
  /** The engine's default eviction policy wins when its predicted hit ratio is this close to the best's. */
  public static final double DEFAULT_EVICTION_TIE = 0.005;
  /** Fewer sampled references than this are too little data for a recommendation. */
  public static final long MIN_SAMPLED_REFERENCES = 1000;
  /**
   * The recommendation in force stays while its predicted hit ratio, taken again on today's curves,
   * is within this of what it predicted; also the move of the hit ratio that makes a new prediction
   * of the same tier material ({@link #recommendChange}).
   */
  public static final double HOLD_HIT_RATIO_TOLERANCE = 0.02;

  private TierRecommender() {}

  /**
   * What the recommendation is computed from, for one volume and window.
   *
   * @param tenantId tenant (UUID text)
   * @param volumeId volume id
   * @param windowName the window of the curves ("24h", ...)
   * @param mrc the MRC of all references on the grid of {@link MissRatioCurve#cacheSizeGrid}
   * @param missRatioAt the same MRC at any cache size in bytes
   * @param readMrc the MRC of the reads on the same grid
   * @param readMissRatioAt the same at any cache size in bytes
   * @param wssBytes estimated working set size, bytes
   * @param method SHARDS method of the curves
   * @param samplingRate SHARDS rate R of the estimate
   * @param sampledReferences sampled references behind the curves
   * @param io the volume's I/O mix
   * @param evictions each eviction policy's miss ratio from LRU's, or null: LRU alone
   * @param measured the datastore's and peers' latency the agent measured, or null: assumed
   *     ({@link ServiceTimes})
   */
  public record Input(String tenantId, String volumeId, String windowName, MissRatioCurve mrc,
      LongToDoubleFunction missRatioAt, MissRatioCurve readMrc, LongToDoubleFunction readMissRatioAt, long wssBytes,
      String method, double samplingRate, long sampledReferences, IoProfile io, EvictionCurves evictions,
      MeasuredLatency measured) {

    /** The same input with the agent's measured latency ({@code measured} null: none). */
    public Input withMeasured(MeasuredLatency measured) {
      return new Input(tenantId, volumeId, windowName, mrc, missRatioAt, readMrc, readMissRatioAt, wssBytes, method,
          samplingRate, sampledReferences, io, evictions, measured);
    }

    /**
     * The input from an estimator's state (a volume without sampled reads gets a reads curve that
     * misses everywhere: only write-back can help it).
     *
     * @throws IllegalStateException when the estimator has no reference
     */
    public static Input of(String tenantId, String volumeId, String windowName, MrcEstimate e, IoProfile io) {
      return of(tenantId, volumeId, windowName, e, io, null);
    }

    /**
     * The same with every eviction policy's curve from the stream's simulations ({@code w} null, or
     * without simulations: LRU alone).
     */
    public static Input of(String tenantId, String volumeId, String windowName, MrcEstimate e, IoProfile io,
        WindowedEstimators w) {
      WindowEstimate estimate = WindowEstimate.of(windowName, e, io, w);
      estimate.tenantId = tenantId;
      estimate.volumeId = volumeId;
      return of(estimate);
    }

    /**
     * The input from a window's estimate as the working-set operators emit it, with its measured
     * latency (a stream without sampled reads gets a reads curve that misses everywhere).
     */
    public static Input of(WindowEstimate e) {
      long[] grid = MissRatioCurve.cacheSizeGrid(e.wssBytes);
      MissRatioFunction reads = e.readMissRatios;
      MissRatioCurve read;
      if (reads != null) {
        read = reads.at(grid);
      } else {
        double[] ones = new double[grid.length];
        java.util.Arrays.fill(ones, 1.0);
        read = new MissRatioCurve(grid, ones);
      }
      EvictionDifferences evictions = e.evictions;
      return new Input(e.tenantId, e.volumeId, e.windowName, e.missRatios.at(grid), e.missRatios::missRatioAt, read,
          bytes -> reads == null ? 1.0 : reads.missRatioAt(bytes), e.wssBytes, e.method, e.samplingRate,
          e.sampledReferences, e.io, evictions == null ? null : evictions::missRatio, e.measured);
    }
  }

  /**
   * An eviction policy's miss ratio at a size, from LRU's there and the cold-miss ratio, its floor
   * ({@link WindowedEstimators#evictionMissRatio}).
   */
  @FunctionalInterface
  public interface EvictionCurves {
    double missRatio(EvictionPolicy policy, long cacheBytes, double lruMissRatio, double coldMissRatio,
        boolean readsOnly);
  }

  /**
   * The recommendation for one volume, or empty when the data cannot support one (see class doc).
   */
  public static Optional<Recommendation> recommend(Input in) {
    return recommend(in, null);
  }

  /**
   * The same, keeping {@code held}'s tier while its prediction holds (hysteresis, class doc).
   *
   * @param held the recommendation in force for this volume and window, or null
   */
  public static Optional<Recommendation> recommend(Input in, Recommendation held) {
    return decide(in, held).map(TierRecommender::describe);
  }

  /**
   * The recommendation when it differs materially from {@code last} ({@link
   * Recommendation#differsMateriallyFrom} by {@link #HOLD_HIT_RATIO_TOLERANCE}), else empty, as
   * when the data cannot support one. Its inputs and explanation, most of its cost, are made only
   * then.
   *
   * @param held the recommendation in force (hysteresis), or null
   * @param last the last recommendation passed on for this volume or shared tier, or null
   */
  public static Optional<Recommendation> recommendChange(Input in, Recommendation held, Recommendation last) {
    return decide(in, held).filter(d -> d.r().differsMateriallyFrom(last, HOLD_HIT_RATIO_TOLERANCE))
        .map(TierRecommender::describe);
  }

  /**
   * A recommendation's decided fields ({@code r}: every field but its inputs and explanation) and
   * what its description is made from.
   */
  private record Decision(Input in, Recommendation r, TierEffect effect, ServiceTimes times, Interconnect interconnect,
      MissRatioCurve curve, List<EvictionPolicy> evictions, EvictionPolicy eviction, LatencyModel tier,
      long requiredBytes, long ramBytes, double readShare, boolean readHeavy, double writeLatency,
      double writeLatencyShare, boolean writesMatter, boolean writeBack, double readHit, double lruHit, String kept) {}

  private static Optional<Decision> decide(Input in, Recommendation held) {
    if (in.sampledReferences() < MIN_SAMPLED_REFERENCES) {
      return Optional.empty();
    }
    IoProfile io = in.io();
    ServiceTimes times = new ServiceTimes(in.measured());
    TierEffect effect = new TierEffect(io, times);
    if (effect.ops() <= 0) {
      return Optional.empty();
    }
    double readShare = effect.readShare();
    double writeLatency = effect.writeLatency();
    double writeLatencyShare = writeLatency / Math.max(1e-9, writeLatency + effect.readLatency());
    // Write-back where writes matter, and only where the replica interconnect lets it beat the
    // datastore (checked on the NVMe tier write-back gets unless the volume is read-heavy).
    Interconnect interconnect = Interconnect.of(io, times, LatencyModel.NVME);
    boolean writesMatter = 1 - readShare > WRITE_BACK_ABOVE_WRITE_SHARE
        || writeLatencyShare > WRITE_BACK_ABOVE_WRITE_LATENCY_SHARE;
    boolean writeBack = writesMatter && interconnect.writeBackFaster();
    MissRatioCurve curve = writeBack ? in.mrc() : in.readMrc();
    LongToDoubleFunction missAt = writeBack ? in.missRatioAt() : in.readMissRatioAt();
    double achievable = curve.achievableHitRatio();
    if (achievable < MIN_ACHIEVABLE_HIT_RATIO) {
      return Optional.empty();
    }
    double target = TARGET_FRACTION * achievable;
    List<EvictionPolicy> evictions = in.evictions() == null ? List.of(EvictionPolicy.LRU) : List.of(EvictionPolicy.values());
    long requiredBytes = requiredBytes(in, curve, !writeBack, evictions, target);
    boolean readHeavy = readShare >= READ_HEAVY_SHARE;
    long ramBytes = roundUp(requiredBytes, RAM_STEP_BYTES);
    boolean ram = readHeavy && ramBytes <= RAM_MAX_BYTES;
    LatencyModel tier = ram ? LatencyModel.RAM : LatencyModel.NVME;

    Recommendation r = new Recommendation();
    r.tenantId = in.tenantId();
    r.volumeId = in.volumeId();
    r.windowName = in.windowName();
    r.tierBytes = ram ? ramBytes : roundUp(requiredBytes, NVME_STEP_BYTES);
    r.media = ram ? "ram" : "nvme";
    r.policy = writeBack ? "write-back" : "write-through";
    r.replicas = writeBack ? WRITE_BACK_REPLICAS : 0;
    EvictionPolicy eviction = bestEviction(in, evictions, r.tierBytes, !writeBack);
    String kept = holds(in, held, r, evictions);
    if (kept != null) {
      r.tierBytes = held.tierBytes;
      r.media = held.media;
      eviction = EvictionPolicy.parseService(held.eviction);
      tier = r.media.equals("ram") ? LatencyModel.RAM : LatencyModel.NVME;
    }
    r.eviction = eviction.serviceName();
    r.predictedHitRatio = hitRatio(in, eviction, r.tierBytes, !writeBack);
    r.achievableHitRatio = achievable;
    r.targetHitRatio = target;
    double readHit = hitRatio(in, eviction, r.tierBytes, true);
    TierEffect.Prediction p = effect.at(readHit, hitRatio(in, eviction, r.tierBytes, false), writeBack, tier, r.replicas);
    r.offloadedIops = p.offloadedIops();
    r.offloadedBytesPerSecond = p.offloadedBytesPerSecond();
    r.datastoreLatencyMicros = effect.datastoreLatencyMicros();
    r.predictedLatencyMicros = p.latencyMicros();
    r.tierWriteBytesPerDay = p.tierWriteBytesPerDay();
    return Optional.of(new Decision(in, r, effect, times, interconnect, curve, evictions, eviction, tier, requiredBytes,
        ramBytes, readShare, readHeavy, writeLatency, writeLatencyShare, writesMatter, writeBack, readHit,
        1 - missAt.applyAsDouble(r.tierBytes), kept));
  }

  /** {@code d}'s recommendation with its inputs (JSON) and explanation. */
  private static Recommendation describe(Decision d) {
    Input in = d.in();
    Recommendation r = d.r();
    IoProfile io = in.io();
    boolean writeBack = d.writeBack();
    TierEffect effect = d.effect();
    double lruHit = d.lruHit();
    double largeWriteLatencyShare = effect.datastoreLatency(io.writeOps, io.writeBytes, true, firstLargeBin())
        / Math.max(1e-9, d.writeLatency());
    ObjectNode inputs = inputs(in, d.requiredBytes(), d.readShare(), d.writeLatencyShare(), largeWriteLatencyShare,
        d.readHit());
    double datastoreMeasured = d.times().datastoreMeasuredShare(io);
    double peerMeasured = d.times().peerMeasuredShare(io);
    inputs.set("interconnect", d.interconnect().json());
    inputs.putObject("measured_latency_share").put("datastore", datastoreMeasured).put("peer", peerMeasured)
        .put("tier", 0.0);
    ObjectNode byEviction = inputs.putObject("eviction_hit_ratios");
    ObjectNode tierWrites = inputs.putObject("eviction_tier_write_bytes_per_day");
    for (EvictionPolicy e : d.evictions()) {
      byEviction.put(e.serviceName(), hitRatio(in, e, r.tierBytes, !writeBack));
      tierWrites.put(e.serviceName(), effect.at(hitRatio(in, e, r.tierBytes, true), hitRatio(in, e, r.tierBytes, false),
          writeBack, d.tier(), r.replicas).tierWriteBytesPerDay());
    }
    inputs.set("what_if", whatIf(in, effect, d.curve(), d.evictions(), writeBack, d.readHeavy(), r.replicas));
    r.inputsJson = Json.text(inputs);
    boolean writesMatter = d.writesMatter();
    r.explanation = explain(in, r, d.requiredBytes(), d.readShare(), d.readHeavy(), d.ramBytes(), d.writeLatencyShare(),
        largeWriteLatencyShare, writesMatter && !writeBack) + " " + explainEviction(d.eviction(), r.tierBytes,
            r.predictedHitRatio, lruHit, d.evictions().contains(EvictionPolicy.ENGINE_DEFAULT)
                ? hitRatio(in, EvictionPolicy.ENGINE_DEFAULT, r.tierBytes, !writeBack) : lruHit, d.evictions())
        + (r.media.equals("nvme") ? " " + TierWrites.explain(r, tierWrites) : "")
        + (writesMatter && !d.interconnect().explain().isEmpty() ? " " + d.interconnect().explain() : "")
        + " " + explainLatencySources(r, datastoreMeasured, peerMeasured) + (d.kept() == null ? "" : " " + d.kept());
    return r;
  }

  /** The policy with the highest predicted hit ratio at {@code bytes}; the engine's default within the tie. */
  private static EvictionPolicy bestEviction(Input in, List<EvictionPolicy> evictions, long bytes, boolean readsOnly) {
    EvictionPolicy best = evictions.get(0);
    for (EvictionPolicy p : evictions) {
      if (hitRatio(in, p, bytes, readsOnly) > hitRatio(in, best, bytes, readsOnly)) {
        best = p;
      }
    }
    if (evictions.contains(EvictionPolicy.ENGINE_DEFAULT)
        && hitRatio(in, EvictionPolicy.ENGINE_DEFAULT, bytes, readsOnly) >= hitRatio(in, best, bytes, readsOnly)
            - DEFAULT_EVICTION_TIE) {
      best = EvictionPolicy.ENGINE_DEFAULT;
    }
    return best;
  }

  /**
   * Whether {@code held} stays instead of {@code fresh}'s tier (class doc): the sentence that says
   * why, or null when it does not (none held, another window or write policy, the same tier anyway,
   * a prediction that no longer holds, or a tier that could now be halved).
   */
  private static String holds(Input in, Recommendation held, Recommendation fresh, List<EvictionPolicy> evictions) {
    if (held == null || !held.windowName.equals(fresh.windowName) || !held.policy.equals(fresh.policy)
        || held.tierBytes == fresh.tierBytes && held.media.equals(fresh.media)) {
      return null;
    }
    EvictionPolicy eviction = EvictionPolicy.parseService(held.eviction);
    if (!evictions.contains(eviction) || 2 * fresh.tierBytes <= held.tierBytes) {
      return null;
    }
    double now = hitRatio(in, eviction, held.tierBytes, held.policy.equals("write-through"));
    if (Math.abs(now - held.predictedHitRatio) > HOLD_HIT_RATIO_TOLERANCE) {
      return null;
    }
    return "The " + Sizes.human(held.tierBytes) + " tier recommended before stays: its predicted hit ratio holds ("
        + Sizes.percent(held.predictedHitRatio) + " then, " + Sizes.percent(now) + " now), where today's curve alone"
        + " would ask for " + Sizes.human(fresh.tierBytes) + ".";
  }

  /** The smallest grid size at which some policy's curve reaches {@code target}; the last size if none does. */
  private static long requiredBytes(Input in, MissRatioCurve lru, boolean readsOnly, List<EvictionPolicy> evictions,
      double target) {
    for (int i = 0; i < lru.size(); i++) {
      for (EvictionPolicy p : evictions) {
        double miss = p == EvictionPolicy.LRU ? lru.missRatio(i)
            : in.evictions().missRatio(p, lru.cacheBytes(i), lru.missRatio(i), lru.missRatio(lru.size() - 1), readsOnly);
        if (1 - miss >= target) {
          return lru.cacheBytes(i);
        }
      }
    }
    return lru.cacheBytes(lru.size() - 1);
  }

  /** Policy {@code p}'s predicted hit ratio at {@code bytes}: all references, or the reads alone. */
  private static double hitRatio(Input in, EvictionPolicy p, long bytes, boolean readsOnly) {
    double lruMiss = (readsOnly ? in.readMissRatioAt() : in.missRatioAt()).applyAsDouble(bytes);
    double coldMiss = 1 - (readsOnly ? in.readMrc() : in.mrc()).achievableHitRatio();
    return 1 - (p == EvictionPolicy.LRU ? lruMiss : in.evictions().missRatio(p, bytes, lruMiss, coldMiss, readsOnly));
  }

  /**
   * What a tier of every size of the curve's grid would do under every policy, with the
   * recommendation's write policy and the media the rules would give that size: [{cache_bytes,
   * eviction, media, hit_ratio, offloaded_iops, latency_us, tier_write_bytes_per_day}], sizes
   * increasing, policies in {@link EvictionPolicy} order (the portal's what-if control).
   */
  private static ArrayNode whatIf(Input in, TierEffect effect, MissRatioCurve curve,
      List<EvictionPolicy> evictions, boolean writeBack, boolean readHeavy, int replicas) {
    ArrayNode rows = Json.array();
    for (long bytes : curve.cacheBytes()) {
      boolean ram = readHeavy && bytes <= RAM_MAX_BYTES;
      for (EvictionPolicy e : evictions) {
        double readHit = hitRatio(in, e, bytes, true);
        TierEffect.Prediction p = effect.at(readHit, hitRatio(in, e, bytes, false), writeBack,
            ram ? LatencyModel.RAM : LatencyModel.NVME, replicas);
        rows.addObject().put("cache_bytes", bytes).put("eviction", e.serviceName()).put("media", ram ? "ram" : "nvme")
            .put("hit_ratio", hitRatio(in, e, bytes, !writeBack)).put("offloaded_iops", p.offloadedIops())
            .put("latency_us", p.latencyMicros()).put("tier_write_bytes_per_day", p.tierWriteBytesPerDay());
      }
    }
    return rows;
  }

  /** Why this eviction policy: what it keeps against LRU at the recommended size. */
  private static String explainEviction(EvictionPolicy eviction, long tierBytes, double hit, double lruHit,
      double defaultHit, List<EvictionPolicy> evictions) {
    String name = eviction.serviceName().toUpperCase(Locale.ROOT);
    if (evictions.size() == 1) {
      return "Eviction LRU: no other policy was simulated for this volume.";
    }
    if (eviction != EvictionPolicy.ENGINE_DEFAULT && hit > defaultHit) {
      // Chosen over the engine's default: say by how much, and where LRU stands.
      return "Eviction " + name + ": at " + Sizes.human(tierBytes) + " it hits " + Sizes.percent(hit) + " where the"
          + " engine's default " + EvictionPolicy.ENGINE_DEFAULT.serviceName().toUpperCase(Locale.ROOT) + " hits "
          + Sizes.percent(defaultHit) + " (LRU " + Sizes.percent(lruHit) + ").";
    }
    if (eviction == EvictionPolicy.LRU || lruHit <= 0 || hit <= lruHit) {
      return "Eviction " + name + ": at " + Sizes.human(tierBytes) + " no policy hits more than "
          + Sizes.percent(hit) + (eviction == EvictionPolicy.ENGINE_DEFAULT ? " (the engine's default)." : ".");
    }
    return "Eviction " + name + ": it keeps " + Sizes.percent((hit - lruHit) / lruHit) + " more of the"
        + " re-referenced blocks than LRU at " + Sizes.human(tierBytes) + " (" + Sizes.percent(hit) + " hits against "
        + Sizes.percent(lruHit) + ").";
  }

  /** The first ioLength bin of I/Os of {@link #LARGE_IO_BYTES} and larger. */
  private static int firstLargeBin() {
    for (int b = 0; b < IoLengthBins.COUNT; b++) {
      Long upper = IoLengthBins.upperBytes(b);
      if (upper == null || upper >= LARGE_IO_BYTES) {
        return b;
      }
    }
    return IoLengthBins.COUNT;
  }

  /**
   * Which latencies were measured and which assumed: the datastore's and the peers' as shares of
   * the I/Os whose size bin the agent measured ({@link ServiceTimes}), the tier's always assumed.
   */
  private static String explainLatencySources(Recommendation r, double datastoreMeasured, double peerMeasured) {
    LatencyModel tier = r.media.equals("ram") ? LatencyModel.RAM : LatencyModel.NVME;
    String datastore = datastoreMeasured >= 0.995 ? "as the agent measured it"
        : datastoreMeasured > 0 ? "as the agent measured it for " + Sizes.percent(datastoreMeasured)
            + " of the I/Os (by size), assumed for the rest (" + model(LatencyModel.DATASTORE) + ")"
            : "assumed (" + model(LatencyModel.DATASTORE) + "): nothing measured yet";
    String peer = r.replicas == 0 ? ""
        : peerMeasured >= 0.995 ? "; the peers' as measured"
            : peerMeasured > 0 ? "; the peers' measured for " + Sizes.percent(peerMeasured) + " of the writes"
                : "; the peers' assumed (" + model(LatencyModel.PEER) + ")";
    return "Latency: the datastore's " + datastore + peer + "; the tier's assumed (" + model(tier) + ").";
  }

  /** A latency model in words: "1000 us + 200 MB/s". */
  private static String model(LatencyModel m) {
    return Math.round(m.baseMicros()) + " us + " + Math.round(m.bytesPerMicro()) + " MB/s";
  }

  private static long roundUp(long bytes, long step) {
    return Math.max(1, (bytes + step - 1) / step) * step;
  }

  private static ObjectNode inputs(Input in, long requiredBytes, double readShare, double writeLatencyShare,
      double largeWriteLatencyShare, double readHit) {
    ObjectNode o = Json.object();
    o.put("window", in.windowName());
    o.put("method", in.method());
    o.put("sampling_rate", in.samplingRate());
    o.put("sampled_references", in.sampledReferences());
    o.put("wss_bytes", in.wssBytes());
    o.put("read_share", readShare);
    o.put("seconds", in.io().seconds());
    o.put("read_ops", IoProfile.sum(in.io().readOps));
    o.put("write_ops", IoProfile.sum(in.io().writeOps));
    o.put("read_bytes", IoProfile.sum(in.io().readBytes));
    o.put("write_bytes", IoProfile.sum(in.io().writeBytes));
    o.put("write_latency_share", writeLatencyShare);
    o.put("large_write_latency_share", largeWriteLatencyShare);
    o.put("predicted_read_hit_ratio", readHit);
    o.put("target_fraction", TARGET_FRACTION);
    o.put("required_cache_bytes", requiredBytes);
    ObjectNode models = o.putObject("latency_models");
    for (LatencyModel m : new LatencyModel[] {LatencyModel.DATASTORE, LatencyModel.RAM, LatencyModel.NVME,
        LatencyModel.PEER}) {
      models.putObject(m.name()).put("base_us", m.baseMicros()).put("bytes_per_us", m.bytesPerMicro());
    }
    o.putRawValue("mrc_points", new RawValue(Json.mrcPoints(in.mrc().cacheBytes(), in.mrc().missRatios())));
    o.putRawValue("read_mrc_points", new RawValue(Json.mrcPoints(in.readMrc().cacheBytes(), in.readMrc().missRatios())));
    return o;
  }

  private static String explain(Input in, Recommendation r, long requiredBytes, double readShare, boolean readHeavy,
      long ramBytes, double writeLatencyShare, double largeWriteLatencyShare, boolean slowLink) {
    String mediaReason;
    if (r.media.equals("ram")) {
      mediaReason = "RAM because the volume is read-heavy and the tier is at most " + Sizes.human(RAM_MAX_BYTES);
    } else if (!readHeavy) {
      mediaReason = "NVMe because reads are under " + Sizes.percent(READ_HEAVY_SHARE) + " of I/Os";
    } else {
      mediaReason = "NVMe because " + Sizes.human(ramBytes) + " is more than the " + Sizes.human(RAM_MAX_BYTES)
          + " RAM limit";
    }
    String policyReason = r.policy.equals("write-back")
        ? "Write-back with " + r.replicas + " peer replica because writes are " + Sizes.percent(1 - readShare)
            + " of I/Os and cause " + Sizes.percent(writeLatencyShare) + " of the datastore latency; writes of "
            + Sizes.human(LARGE_IO_BYTES) + " and larger cause " + Sizes.percent(largeWriteLatencyShare)
            + " of write latency."
        : (slowLink ? "Write-through although writes are " : "Write-through because writes are ")
            + Sizes.percent(1 - readShare) + " of I/Os and cause " + Sizes.percent(writeLatencyShare)
            + " of the datastore latency (write-back above " + Sizes.percent(WRITE_BACK_ABOVE_WRITE_SHARE)
            + " of either" + (slowLink ? ", where the peer link lets it beat the datastore: below" : "")
            + "); writes of " + Sizes.human(LARGE_IO_BYTES) + " and larger cause "
            + Sizes.percent(largeWriteLatencyShare) + " of write latency.";
    String served = r.policy.equals("write-back") ? "references" : "reads";
    return "Over the last " + in.windowName() + ", reads are " + Sizes.percent(readShare)
        + " of I/Os and the working set is " + Sizes.human(in.wssBytes()) + ". An unlimited tier would serve "
        + Sizes.percent(r.achievableHitRatio) + " of " + served + " (the rest are first references); the target is "
        + Sizes.percent(TARGET_FRACTION) + " of that, " + Sizes.percent(r.targetHitRatio)
        + ". The miss ratio curve reaches it at " + Sizes.human(requiredBytes) + ", rounded up to "
        + Sizes.human(r.tierBytes) + " (" + mediaReason + "), where it predicts a hit ratio of "
        + Sizes.percent(r.predictedHitRatio) + ", " + String.format(java.util.Locale.ROOT, "%.1f", r.offloadedIops)
        + " I/Os and " + Sizes.human(Math.round(r.offloadedBytesPerSecond)) + " per second kept from the datastore,"
        + " and a mean VM-observed latency of " + Math.round(r.predictedLatencyMicros) + " us instead of "
        + Math.round(r.datastoreLatencyMicros) + " us. " + policyReason;
  }
}
