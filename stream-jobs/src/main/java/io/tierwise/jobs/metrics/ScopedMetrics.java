package io.tierwise.jobs.metrics;

import java.util.ArrayList;
import java.util.List;

/**
 * One volume interval routed to one rollup scope (a Flink POJO). {@link #scopeKey} is
 * "tenant|scope|scope id", scope one of volume, host, cluster, tenant.
 */
public class ScopedMetrics {
  /** The scope of one volume's own intervals. */
  public static final String VOLUME = "volume";

  /** "tenant|scope|scope id". */
  public String scopeKey;
  /** The volume's interval. */
  public IntervalMetrics metrics;

  /** For Flink. */
  public ScopedMetrics() {}

  /** The interval routed to the scope {@code scope} with id {@code scopeId}. */
  public ScopedMetrics(String scope, String scopeId, IntervalMetrics metrics) {
    this.scopeKey = metrics.tenantId + "|" + scope + "|" + scopeId;
    this.metrics = metrics;
  }

  /**
   * The scopes one volume interval adds to: its volume, its host (when the agent sent host.id),
   * its cluster (when it sent tierwise.cluster.id) and its tenant.
   */
  public static ScopedMetrics[] scopesOf(IntervalMetrics m) {
    List<ScopedMetrics> out = new ArrayList<>(4);
    out.add(new ScopedMetrics(VOLUME, m.volumeId, m));
    if (m.hostId != null) {
      out.add(new ScopedMetrics("host", m.hostId, m));
    }
    if (m.clusterId != null) {
      out.add(new ScopedMetrics("cluster", m.clusterId, m));
    }
    out.add(new ScopedMetrics("tenant", m.tenantId, m));
    return out.toArray(new ScopedMetrics[0]);
  }
}
