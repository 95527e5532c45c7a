package io.tierwise.jobs.metrics;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * One volume_cache_health_10s row per volume interval, from the agent's telemetry (keyed by
 * "tenant/volume"): dirty bytes (tierwise.cache.dirty), front-end latency sum and I/Os per
 * ioLength bin (tierwise.io.latency's sum and count), the interval's destage and tier device
 * errors (tierwise.cache.destage.errors, tierwise.cache.tier.errors; the device_errors alert's
 * counts), and the configured vs effective cache mode.
 *
 * <p>The agent reports the mode it runs in (resource attribute tierwise.cache.mode) and counts
 * write-back to write-through fallbacks after a peer or tier device failure of a volume with
 * peers (tierwise.cache.fallbacks), not the mode its policy asks for. So the function keeps one
 * flag per volume, "fell back": set by an
 * interval with a fallback; cleared by an interval in write-back with a peer acknowledging again
 * (tierwise.replication.peers &gt; 0; a write-back volume with peers that restarted healthy), since
 * a fallback only happens with peers. While it is set the row says configured write-back,
 * effective write-through (the write_back_fallback alert's condition); otherwise both are the
 * reported mode (a volume switched to write-through by its policy has no fallback, so no alert).
 * Intervals without the mode attribute give no row.
 */
public class CacheHealthFunction extends KeyedProcessFunction<String, IntervalMetrics, CacheHealthRow> {
  private static final long serialVersionUID = 1L;
  private static final String WRITE_BACK = "write-back";
  private static final String WRITE_THROUGH = "write-through";

  private transient ValueState<Boolean> fellBack;

  @Override
  public void open(OpenContext openContext) {
    fellBack = getRuntimeContext().getState(new ValueStateDescriptor<>("fell-back", Types.BOOLEAN));
  }

  @Override
  public void processElement(IntervalMetrics m, Context ctx, Collector<CacheHealthRow> out) throws Exception {
    CacheHealth h = m.health;
    if (h.mode == null) {
      return;
    }
    if (h.fallbacks > 0) {
      fellBack.update(true);
    } else if (WRITE_BACK.equals(h.mode) && h.healthyPeers > 0) {
      fellBack.clear();
    }
    boolean fallen = Boolean.TRUE.equals(fellBack.value());
    CacheHealthRow row = new CacheHealthRow();
    row.tenantId = m.tenantId;
    row.volumeId = m.volumeId;
    row.intervalStartUnixNano = m.intervalStartUnixNano;
    row.configuredMode = fallen ? WRITE_BACK : h.mode;
    row.effectiveMode = fallen ? WRITE_THROUGH : h.mode;
    row.dirtyBytes = Math.max(0, h.dirtyBytes);
    row.destageErrors = h.destageErrors;
    row.tierErrors = h.tierErrors;
    row.latencySumMicros = h.latencySumMicros.clone();
    row.latencyOps = h.latencyOps.clone();
    row.traceparent = m.traceparent;
    out.collect(row);
  }
}
