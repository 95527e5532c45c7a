package io.tierwise.jobs.recommend;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tierwise.jobs.sink.Json;
import io.tierwise.jobs.workingset.MissRatioCurve;
import java.util.Optional;
import java.util.function.LongToDoubleFunction;

/**
 * The first-cut tier recommendation of DESIGN section 4, from a volume's LRU miss ratio curve.
 *
 * <ol>
 *   <li>achievable hit ratio {@code a} = the hit ratio at the MRC's largest size (at least twice
 *       the working set, so only cold misses remain);
 *   <li>target hit ratio = {@value #TARGET_FRACTION} x {@code a} (DESIGN section 4 default);
 *   <li>required size = the smallest MRC size whose hit ratio reaches the target;
 *   <li>media and size: RAM, rounded up to a multiple of 256 MiB, when that is at most 4 GiB and
 *       the volume is read-heavy (reads &ge; {@value #READ_HEAVY_SHARE} of references, the
 *       conventional 70/30 read/write mix); otherwise NVMe rounded up to a multiple of 1 GiB;
 *   <li>policy: write-back when writes are more than {@value #WRITE_BACK_ABOVE_WRITE_SHARE} of
 *       references, else write-through;
 *   <li>predicted hit ratio = 1 - the MRC's miss ratio at the recommended size.
 * </ol>
 *
 * Read and write shares are those of the sampled 4 KiB block references. No recommendation is
 * made from fewer than {@value #MIN_SAMPLED_REFERENCES} sampled references, or when no block is
 * ever re-referenced (achievable hit ratio 0: no tier would help).
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
  /** A volume is read-heavy when at least this share of its references are reads. */
  public static final double READ_HEAVY_SHARE = 0.7;
  /** Write-back when the write share exceeds this. */
  public static final double WRITE_BACK_ABOVE_WRITE_SHARE = 0.5;
  /** Fewer sampled references than this are too little data for a recommendation. */
  public static final long MIN_SAMPLED_REFERENCES = 1000;

  private TierRecommender() {}

  /**
   * What the recommendation is computed from, for one volume.
   *
   * @param tenantId tenant (UUID text)
   * @param volumeId volume id
   * @param mrc the MRC on the grid of {@link MissRatioCurve#cacheSizeGrid}
   * @param missRatioAt the same MRC at any cache size in bytes (for the predicted hit ratio)
   * @param readShare reads / all sampled references, 0..1
   * @param wssBytes estimated working set size, bytes
   * @param samplingRate SHARDS sampling rate R
   * @param sampledReferences sampled references behind the MRC
   */
  public record Input(String tenantId, String volumeId, MissRatioCurve mrc, LongToDoubleFunction missRatioAt,
      double readShare, long wssBytes, double samplingRate, long sampledReferences) {}

  /**
   * The recommendation for one volume, or empty when the data cannot support one (see class doc).
   */
  public static Optional<Recommendation> recommend(Input in) {
    double achievable = in.mrc().achievableHitRatio();
    if (in.sampledReferences() < MIN_SAMPLED_REFERENCES || achievable <= 0) {
      return Optional.empty();
    }
    double target = TARGET_FRACTION * achievable;
    // The last point has hit ratio `achievable` >= target, so some point reaches it.
    int required = in.mrc().smallestReaching(target).orElse(in.mrc().size() - 1);
    long requiredBytes = in.mrc().cacheBytes(required);
    boolean readHeavy = in.readShare() >= READ_HEAVY_SHARE;
    long ramBytes = roundUp(requiredBytes, RAM_STEP_BYTES);
    boolean ram = readHeavy && ramBytes <= RAM_MAX_BYTES;
    double writeShare = 1 - in.readShare();

    Recommendation r = new Recommendation();
    r.tenantId = in.tenantId();
    r.volumeId = in.volumeId();
    r.tierBytes = ram ? ramBytes : roundUp(requiredBytes, NVME_STEP_BYTES);
    r.media = ram ? "ram" : "nvme";
    r.policy = writeShare > WRITE_BACK_ABOVE_WRITE_SHARE ? "write-back" : "write-through";
    r.predictedHitRatio = 1 - in.missRatioAt().applyAsDouble(r.tierBytes);
    r.achievableHitRatio = achievable;
    r.targetHitRatio = target;
    r.inputsJson = Json.text(inputs(in, requiredBytes));
    r.explanation = explain(in, r, requiredBytes, readHeavy, ramBytes);
    return Optional.of(r);
  }

  private static long roundUp(long bytes, long step) {
    return Math.max(1, (bytes + step - 1) / step) * step;
  }

  private static ObjectNode inputs(Input in, long requiredBytes) {
    ObjectNode o = Json.object();
    o.put("method", "shards-fixed-rate");
    o.put("sampling_rate", in.samplingRate());
    o.put("sampled_references", in.sampledReferences());
    o.put("wss_bytes", in.wssBytes());
    o.put("read_share", in.readShare());
    o.put("target_fraction", TARGET_FRACTION);
    o.put("required_cache_bytes", requiredBytes);
    o.set("mrc_points", Json.mrcPoints(in.mrc().cacheBytes(), in.mrc().missRatios()));
    return o;
  }

  private static String explain(Input in, Recommendation r, long requiredBytes, boolean readHeavy, long ramBytes) {
    String mediaReason;
    if (r.media.equals("ram")) {
      mediaReason = "RAM because the volume is read-heavy and the tier is at most " + Sizes.human(RAM_MAX_BYTES);
    } else if (!readHeavy) {
      mediaReason = "NVMe because reads are under " + Sizes.percent(READ_HEAVY_SHARE) + " of references";
    } else {
      mediaReason = "NVMe because " + Sizes.human(ramBytes) + " is more than the " + Sizes.human(RAM_MAX_BYTES)
          + " RAM limit";
    }
    return "Reads are " + Sizes.percent(in.readShare()) + " of the sampled block references and the working set is "
        + Sizes.human(in.wssBytes()) + ". An unlimited cache would hit " + Sizes.percent(r.achievableHitRatio)
        + " of references (the rest are first references); the target is "
        + Sizes.percent(TARGET_FRACTION) + " of that, " + Sizes.percent(r.targetHitRatio)
        + ". The miss ratio curve reaches it at " + Sizes.human(requiredBytes) + ", rounded up to "
        + Sizes.human(r.tierBytes) + " (" + mediaReason + "), where it predicts a hit ratio of "
        + Sizes.percent(r.predictedHitRatio) + ". " + (r.policy.equals("write-back")
            ? "Write-back because writes are " + Sizes.percent(1 - in.readShare()) + " of references (over "
                + Sizes.percent(WRITE_BACK_ABOVE_WRITE_SHARE) + ")."
            : "Write-through because writes are " + Sizes.percent(1 - in.readShare())
                + " of references (write-back above " + Sizes.percent(WRITE_BACK_ABOVE_WRITE_SHARE) + ").");
  }
}
