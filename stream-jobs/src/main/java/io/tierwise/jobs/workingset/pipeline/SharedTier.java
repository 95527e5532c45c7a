package io.tierwise.jobs.workingset.pipeline;

import io.tierwise.jobs.workingset.estimate.WindowEstimate;

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

  /** The shared tier's id of this kind among a row's cluster and host ids (an analysis', an estimate's, a recommendation's). */
  public String id(String clusterId, String hostId) {
    return switch (this) {
      case CLUSTER -> clusterId;
      case HOST -> hostId;
    };
  }

  /** The shared tier's id an analysis of this kind carries. */
  public String id(VolumeAnalysis a) {
    return id(a.clusterId, a.hostId);
  }

  /** Stamps the shared tier's id on its analysis. */
  void stamp(VolumeAnalysis a, String id) {
    switch (this) {
      case CLUSTER -> a.clusterId = id;
      case HOST -> a.hostId = id;
    }
  }

  /** Stamps the shared tier's id on its estimate (the recommender stamps it on the recommendation). */
  void stamp(WindowEstimate e, String id) {
    switch (this) {
      case CLUSTER -> e.clusterId = id;
      case HOST -> e.hostId = id;
    }
  }
}
