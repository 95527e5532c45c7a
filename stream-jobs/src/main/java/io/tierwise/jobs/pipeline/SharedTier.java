package io.tierwise.jobs.pipeline;

import io.tierwise.jobs.recommend.Recommendation;
import io.tierwise.jobs.workingset.ReferenceBatchEvent;

/**
 * What shares a tier device, so that its tier is recommended from the merged stream of its volumes
 * (docs/analytics.md "Shared tiers: clusters and hosts"): the hosts of a cluster ({@code --cluster}), or the volumes of one
 * host. Each has its own {@link SharedTierWorkingSetFunction}, its own key and its own tables.
 */
public enum SharedTier {
  /** A cluster's hosts share its tier: keyed by "tenant/cluster". */
  CLUSTER,
  /** A host's volumes share its tier device: keyed by "tenant/host". */
  HOST;

  /** The key of {@code batch}'s shared tier of this kind, "tenant/id", or null when it has none. */
  public String key(ReferenceBatchEvent batch) {
    return switch (this) {
      case CLUSTER -> batch.clusterKey();
      case HOST -> batch.hostId == null || batch.hostId.isEmpty() ? null : batch.tenantId + "/" + batch.hostId;
    };
  }

  /** The shared tier's id an analysis of this kind carries. */
  public String id(VolumeAnalysis a) {
    return switch (this) {
      case CLUSTER -> a.clusterId;
      case HOST -> a.hostId;
    };
  }

  /** The shared tier's id a recommendation of this kind carries. */
  public String id(Recommendation r) {
    return switch (this) {
      case CLUSTER -> r.clusterId;
      case HOST -> r.hostId;
    };
  }

  /** Stamps the shared tier's id on its analysis. */
  void stamp(VolumeAnalysis a, String id) {
    switch (this) {
      case CLUSTER -> a.clusterId = id;
      case HOST -> a.hostId = id;
    }
  }

  /** Stamps the shared tier's id on its recommendation. */
  void stamp(Recommendation r, String id) {
    switch (this) {
      case CLUSTER -> r.clusterId = id;
      case HOST -> r.hostId = id;
    }
  }
}
