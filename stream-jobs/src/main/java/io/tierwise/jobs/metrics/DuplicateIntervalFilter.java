package io.tierwise.jobs.metrics;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drops the metrics intervals an agent sent twice, before anything adds them up. Keyed by
 * "tenant/volume". An agent resends a batch whose answer it did not get (a timeout, ingest or
 * Kafka going down right after the accept) under the same batch id, and ingest publishes what it
 * accepts without remembering it (docs/fleet-scale.md "Deduplication"), so the same interval can
 * reach the jobs twice; the rollups and volume totals add intervals up, so the second copy must go.
 *
 * <p>An interval is known by {@link IntervalMetrics#recordId} (the ingest record's batch id and the
 * interval's end). The function keeps the last {@code remembered} ids of each volume (8 bytes each,
 * {@link RecentIntervals}): a resend comes after the batches the agent sent between the original
 * and its retry, which are fewer than that however long the outage (an agent that cannot deliver
 * sends nothing new in between; its spool drains oldest first). A duplicate is counted (metric
 * {@value #DUPLICATES_METRIC}) and logged at DEBUG; nothing else is emitted for it.
 */
public class DuplicateIntervalFilter extends KeyedProcessFunction<String, IntervalMetrics, IntervalMetrics> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(DuplicateIntervalFilter.class);
  /** The operator's counter of dropped duplicates. */
  public static final String DUPLICATES_METRIC = "duplicateIntervals";
  /** The job's default: how many interval ids of a volume are remembered (4 KiB of state). */
  public static final int DEFAULT_REMEMBERED = 512;

  private final int remembered;
  private transient ValueState<RecentIntervals> recent;
  private transient Counter duplicates;

  /**
   * @param remembered how many of a volume's latest interval ids are kept, &ge; 1
   * @throws IllegalArgumentException when {@code remembered < 1}
   */
  public DuplicateIntervalFilter(int remembered) {
    if (remembered < 1) {
      throw new IllegalArgumentException("remember at least 1 interval, got " + remembered);
    }
    this.remembered = remembered;
  }

  @Override
  public void open(OpenContext openContext) {
    recent = getRuntimeContext().getState(new ValueStateDescriptor<>("recent-intervals", Types.POJO(RecentIntervals.class)));
    duplicates = getRuntimeContext().getMetricGroup().counter(DUPLICATES_METRIC);
  }

  @Override
  public void processElement(IntervalMetrics m, Context ctx, Collector<IntervalMetrics> out) throws Exception {
    RecentIntervals r = recent.value();
    if (r == null) {
      r = new RecentIntervals(remembered);
    }
    if (!r.add(m.recordId)) {
      duplicates.inc();
      LOG.debug("volume {}: dropped a resent interval ending at {} ns", ctx.getCurrentKey(), m.intervalEndUnixNano);
      return;
    }
    recent.update(r);
    out.collect(m);
  }
}
