package io.tierwise.jobs.recommend;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tierwise.jobs.workingset.estimate.IoProfile;
import io.tierwise.jobs.workingset.estimate.ShardsEstimator;
import io.tierwise.jobs.workingset.estimate.eviction.EvictionPolicy;
import java.util.Locale;

/**
 * Bytes a tier writes to its device per day, the figure flash endurance is rated in (drive writes
 * per day). The engine (edge-agent/src/cache/cache_engine.hpp) admits every read miss into the
 * tier and writes every written block into its slot (populate on write), and in write-back also
 * into its journal record (docs/write-back.md); so a policy's tier writes differ from another's
 * only by its read misses. Counted in 4 KiB blocks at the window's rate of block references (an
 * I/O touches at least one block; alignment is not known here).
 *
 * <p>libCacheSim's flash results (FIFO 0.08-0.11 flash bytes per requested byte against LRU
 * 0.71-1.11) come from designs that keep new blocks in DRAM and write only those promoted; this
 * engine's S3-FIFO keeps its small queue on the tier too, so it writes less than LRU by the misses
 * it saves, not by design.
 *
 * @param readBlocksPerSecond read block references per second
 * @param tierWrittenBlocksPerSecond blocks the window's writes put into the tier per second (x 2 in write-back)
 */
record TierWrites(double readBlocksPerSecond, double tierWrittenBlocksPerSecond) {
  private static final double SECONDS_PER_DAY = 86_400;

  /** The rates of {@code io}; write-back writes each written block twice (journal record and slot). */
  static TierWrites of(IoProfile io, boolean writeBack) {
    double seconds = io.seconds();
    return new TierWrites(blocks(io.readOps, io.readBytes) / seconds,
        blocks(io.writeOps, io.writeBytes) * (writeBack ? 2 : 1) / seconds);
  }

  /** Tier bytes written per day when {@code readMissRatio} of the read block references miss. */
  double bytesPerDay(double readMissRatio) {
    return (readBlocksPerSecond * readMissRatio + tierWrittenBlocksPerSecond) * ShardsEstimator.BLOCK_BYTES
        * SECONDS_PER_DAY;
  }

  /**
   * What the tier's device takes per day under {@code r}'s policy (drive writes per day for a
   * device of the tier's size), and under LRU when it would write more.
   *
   * @param byEviction tier bytes per day by eviction policy (service names)
   */
  static String explain(Recommendation r, ObjectNode byEviction) {
    String sentence = "The tier takes " + Sizes.human(Math.round(r.tierWriteBytesPerDay)) + " of writes per day ("
        + String.format(Locale.ROOT, "%.1f", r.tierWriteBytesPerDay / r.tierBytes)
        + " drive writes per day for a device of " + Sizes.human(r.tierBytes) + ")";
    double lru = byEviction.path(EvictionPolicy.LRU.serviceName()).asDouble(r.tierWriteBytesPerDay);
    return sentence + (lru <= r.tierWriteBytesPerDay ? "." : "; LRU would write " + Sizes.human(Math.round(lru)) + ".");
  }

  /** Block references of the I/Os of every size bin: each at least one 4 KiB block. */
  private static double blocks(double[] ops, double[] bytes) {
    double sum = 0;
    for (int b = 0; b < ops.length; b++) {
      if (ops[b] > 0) {
        sum += ops[b] * Math.max(1, Math.ceil(bytes[b] / ops[b] / ShardsEstimator.BLOCK_BYTES));
      }
    }
    return sum;
  }
}
