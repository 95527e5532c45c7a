package io.tierwise.jobs.workingset.pipeline;

import io.tierwise.jobs.metrics.IntervalMetrics;
import io.tierwise.jobs.metrics.MeasuredLatency;

/**
 * One metrics interval's measured latency of one volume ({@link MeasuredLatency}), the
 * {@link WorkingSetFunction}'s second input (a Flink POJO): the recommendations' latency model
 * uses it where the agent measured (docs/analytics.md "Measured latency").
 */
public class VolumeLatency {
  /** Tenant (UUID text). */
  public String tenantId;
  /** Pseudonymous volume id. */
  public String volumeId;
  /** The interval's datastore and peer latency per ioLength bin. */
  public MeasuredLatency latency;

  /** For Flink. */
  public VolumeLatency() {}

  /** The interval's, or null when it measured nothing behind the tier. */
  public static VolumeLatency of(IntervalMetrics m) {
    if (m.measuredLatency.isEmpty()) {
      return null;
    }
    VolumeLatency v = new VolumeLatency();
    v.tenantId = m.tenantId;
    v.volumeId = m.volumeId;
    v.latency = m.measuredLatency;
    return v;
  }

  /** The key the jobs partition by: "tenant/volume", as {@link ReferenceBatchEvent#volumeKey}. */
  public String volumeKey() {
    return tenantId + "/" + volumeId;
  }
}
