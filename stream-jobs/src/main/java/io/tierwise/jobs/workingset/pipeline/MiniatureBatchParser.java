package io.tierwise.jobs.workingset.pipeline;

import io.tierwise.jobs.ingest.InvalidRecordException;
import io.tierwise.jobs.workingset.estimate.MiniatureBatch;
import io.tierwise.jobs.workingset.estimate.eviction.EvictionPolicy;
import io.tierwise.proto.v1.MiniatureSimulation;
import io.tierwise.proto.v1.ReferenceBatch;
import java.util.List;

/**
 * Parses and validates a {@code tierwise.v1.ReferenceBatch}'s miniature simulations
 * (miniature_policies, miniature_simulations; proto/tierwise/v1/reference_batch.proto) into a
 * {@link MiniatureBatch}, as ingest validates them: simulations only with policies; policies
 * known, distinct, LRU among them; per size, cache_bytes a positive multiple of 4 KiB, ascending;
 * {@code 0 < T_C <=} the batch's T; {@code 1 <= references <=} the batch's references (carried or summarised), reads at
 * most the references; one miss count per policy, each at most the references (reads: at most the
 * reads and the policy's misses).
 */
final class MiniatureBatchParser {
  private static final long BLOCK_BYTES = 4096;

  private MiniatureBatchParser() {}

  /**
   * The batch's simulations of its volume (miniature_simulations) or, with {@code hostTier}, of its
   * host's shared tier (host_tier_simulations: a size may come once per T_C, falling), in the
   * service's policy order; null when it has none or they lack a policy the service reports (the
   * service then simulates its mirrors).
   *
   * @throws InvalidRecordException naming the first violation, after {@code prefix}
   */
  static MiniatureBatch parse(String prefix, ReferenceBatch batch, boolean hostTier) throws InvalidRecordException {
    List<io.tierwise.proto.v1.EvictionPolicy> policies = batch.getMiniaturePoliciesList();
    List<MiniatureSimulation> simulations =
        hostTier ? batch.getHostTierSimulationsList() : batch.getMiniatureSimulationsList();
    String field = hostTier ? "host_tier_simulations" : "miniature_simulations";
    if (policies.isEmpty() || (hostTier && simulations.isEmpty())) {
      if (!simulations.isEmpty()) {
        throw new InvalidRecordException(prefix + field + " without miniature_policies");
      }
      return null;
    }
    for (int p = 0; p < policies.size(); p++) {
      io.tierwise.proto.v1.EvictionPolicy policy = policies.get(p);
      if (policy == io.tierwise.proto.v1.EvictionPolicy.EVICTION_POLICY_UNSPECIFIED
          || policy == io.tierwise.proto.v1.EvictionPolicy.UNRECOGNIZED || policies.indexOf(policy) != p) {
        throw new InvalidRecordException(prefix + "miniature_policies[" + p + "] " + policy
            + " is unknown or repeated");
      }
    }
    int[] column = new int[EvictionPolicy.values().length];
    for (EvictionPolicy e : EvictionPolicy.values()) {
      column[e.ordinal()] = policies.indexOf(io.tierwise.proto.v1.EvictionPolicy.valueOf("EVICTION_POLICY_" + e.name()));
    }
    if (column[EvictionPolicy.LRU.ordinal()] < 0) {
      throw new InvalidRecordException(prefix + "miniature_policies lack LRU, the service's control variate");
    }
    int n = simulations.size();
    MiniatureBatch out = new MiniatureBatch();
    out.cacheBytes = new long[n];
    out.thresholds = new long[n];
    out.references = new long[n];
    out.readReferences = new long[n];
    out.misses = new long[n][column.length];
    out.readMisses = new long[n][column.length];
    for (int i = 0; i < n; i++) {
      MiniatureSimulation s = simulations.get(i);
      String at = prefix + field + "[" + i + "]: ";
      check(s, policies.size(), batch, at);
      if (i > 0 && !follows(s, out.cacheBytes[i - 1], out.thresholds[i - 1], hostTier)) {
        throw new InvalidRecordException(at + "cache_bytes " + s.getCacheBytes() + " at T_C "
            + Long.toUnsignedString(s.getSamplingThreshold()) + " does not come after the previous size"
            + (hostTier ? " (ascending, a repeated size at a lower T_C)" : " (ascending)"));
      }
      out.cacheBytes[i] = s.getCacheBytes();
      out.thresholds[i] = s.getSamplingThreshold();
      out.references[i] = s.getReferences();
      out.readReferences[i] = s.getReadReferences();
      for (int p = 0; p < column.length; p++) {
        if (column[p] >= 0) {
          out.misses[i][p] = s.getMisses(column[p]);
          out.readMisses[i][p] = s.getReadMisses(column[p]);
        }
      }
    }
    for (int c : column) {
      if (c < 0) {
        return null;
      }
    }
    return out;
  }

  /** Whether a size comes after the previous one: ascending; a host tier's size again at a lower T_C. */
  private static boolean follows(MiniatureSimulation s, long previousBytes, long previousThreshold, boolean hostTier) {
    return s.getCacheBytes() > previousBytes || (hostTier && s.getCacheBytes() == previousBytes
        && Long.compareUnsigned(s.getSamplingThreshold(), previousThreshold) < 0);
  }

  private static void check(MiniatureSimulation s, int policies, ReferenceBatch batch, String at)
      throws InvalidRecordException {
    long bytes = s.getCacheBytes();
    if (bytes <= 0 || bytes % BLOCK_BYTES != 0) {
      throw new InvalidRecordException(at + "cache_bytes " + Long.toUnsignedString(bytes)
          + " is not a positive multiple of 4 KiB");
    }
    long threshold = s.getSamplingThreshold();
    if (threshold == 0 || Long.compareUnsigned(threshold, batch.getSamplingThreshold()) > 0) {
      throw new InvalidRecordException(at + "sampling_threshold " + Long.toUnsignedString(threshold)
          + " is not in 1..the batch's " + Long.toUnsignedString(batch.getSamplingThreshold()));
    }
    long references = s.getReferences();
    long sampled = batch.hasReferenceSummary() ? batch.getReferenceSummary().getReferences() : batch.getReferencesCount();
    if (references < 1 || Long.compareUnsigned(references, sampled) > 0) {
      throw new InvalidRecordException(at + "references " + Long.toUnsignedString(references)
          + " is not in 1..the batch's " + Long.toUnsignedString(sampled));
    }
    if (Long.compareUnsigned(s.getReadReferences(), references) > 0) {
      throw new InvalidRecordException(at + "read_references is above references");
    }
    if (s.getMissesCount() != policies || s.getReadMissesCount() != policies) {
      throw new InvalidRecordException(at + "needs one miss and one read miss count per policy (" + policies + ")");
    }
    for (int p = 0; p < policies; p++) {
      long misses = s.getMisses(p);
      long readMisses = s.getReadMisses(p);
      if (Long.compareUnsigned(misses, references) > 0 || Long.compareUnsigned(readMisses, s.getReadReferences()) > 0
          || Long.compareUnsigned(readMisses, misses) > 0) {
        throw new InvalidRecordException(at + "policy " + p + ": misses " + Long.toUnsignedString(misses)
            + ", read misses " + Long.toUnsignedString(readMisses) + " exceed the references they count");
      }
    }
  }
}
