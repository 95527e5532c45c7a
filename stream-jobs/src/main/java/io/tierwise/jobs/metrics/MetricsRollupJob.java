package io.tierwise.jobs.metrics;

import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamUtils;
import org.apache.flink.streaming.api.datastream.KeyedStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.Collector;

/**
 * The metrics pipeline: interval telemetry of every volume, keyed by tenant/volume, resent
 * intervals dropped ({@link DuplicateIntervalFilter}) -> {@link MetricsRollupFunction} on the same
 * keyed stream (chained: no second shuffle) -> volume_metrics_10s (counters, cache health and the
 * documents of the volume's 10 s window), volume_io_stats and volume_block_sizes; and the same
 * intervals routed to their volume, host, cluster and tenant ({@link ScopedMetrics}) -> {@link
 * RollupFunction} keyed by scope -> metric_rollups (10 s but a volume's, 1 min, 1 h, 1 d). Source
 * and sinks are given, so tests can run it on their own inputs.
 */
public final class MetricsRollupJob {
  private final Source<IntervalMetrics, ?, ?> source;
  private final Sink<VolumeMetricsRow> volumeMetrics;
  private final Sink<VolumeIoStatsRow> volumeIoStats;
  private final Sink<BlockSizeRow> blockSizes;
  private final Sink<RollupRow> rollups;
  private final Duration flushDelay;
  private final Duration coarseWritePeriod;
  private final Duration rollupLateness;

  /**
   * @param source parsed telemetry.metrics.v1 records
   * @param volumeMetrics sink of volume_metrics_10s rows
   * @param volumeIoStats sink of volume_io_stats rows
   * @param blockSizes sink of volume_block_sizes rows
   * @param rollups sink of metric_rollups rows
   * @param flushDelay rows are written at most this long after the first new record
   * @param coarseWritePeriod how often open windows of 1 min and longer, and a volume's block-size
   *     totals, are rewritten ({@link RollupFunction}, {@link MetricsRollupFunction})
   * @param rollupLateness how far behind a scope's latest interval a rollup window stays open, at
   *     most ({@link RollupFunction}: "Lateness")
   */
  public MetricsRollupJob(Source<IntervalMetrics, ?, ?> source, Sink<VolumeMetricsRow> volumeMetrics,
      Sink<VolumeIoStatsRow> volumeIoStats, Sink<BlockSizeRow> blockSizes, Sink<RollupRow> rollups,
      Duration flushDelay, Duration coarseWritePeriod, Duration rollupLateness) {
    this.source = source;
    this.volumeMetrics = volumeMetrics;
    this.volumeIoStats = volumeIoStats;
    this.blockSizes = blockSizes;
    this.rollups = rollups;
    this.flushDelay = flushDelay;
    this.coarseWritePeriod = coarseWritePeriod;
    this.rollupLateness = rollupLateness;
  }

  /**
   * Adds the pipeline to {@code env} (operator uids are stable for checkpoint restore).
   *
   * @return the parsed metrics intervals without resent ones, for the working-set pipeline's measured latency
   */
  public DataStream<IntervalMetrics> addTo(StreamExecutionEnvironment env) {
    KeyedStream<IntervalMetrics, String> intervals = DataStreamUtils.reinterpretAsKeyedStream(env
        .fromSource(source, WatermarkStrategy.noWatermarks(), "telemetry.metrics.v1")
        .uid("metrics-source")
        .keyBy(IntervalMetrics::volumeKey, Types.STRING)
        .process(new DuplicateIntervalFilter(DuplicateIntervalFilter.DEFAULT_REMEMBERED), Types.POJO(IntervalMetrics.class))
        .uid("duplicate-intervals").name("drop resent intervals"), IntervalMetrics::volumeKey, Types.STRING);
    SingleOutputStreamOperator<VolumeMetricsRow> rows = intervals
        .process(new MetricsRollupFunction(flushDelay.toMillis(), coarseWritePeriod.toMillis()))
        .uid("metrics-rollup")
        .name("metrics rollup");
    rows.sinkTo(volumeMetrics).uid("sink-volume-metrics-10s").name("volume_metrics_10s");
    rows.getSideOutput(MetricsRollupFunction.IO_STATS).sinkTo(volumeIoStats)
        .uid("sink-volume-io-stats").name("volume_io_stats");
    rows.getSideOutput(MetricsRollupFunction.BLOCK_SIZES).sinkTo(blockSizes)
        .uid("sink-volume-block-sizes").name("volume_block_sizes");
    intervals
        .flatMap((IntervalMetrics m, Collector<ScopedMetrics> out) -> {
          for (ScopedMetrics s : ScopedMetrics.scopesOf(m)) {
            out.collect(s);
          }
        }, Types.POJO(ScopedMetrics.class))
        .uid("rollup-scopes").name("rollup scopes")
        .keyBy(s -> s.scopeKey, Types.STRING)
        .process(new RollupFunction(flushDelay.toMillis(), coarseWritePeriod.toMillis(), rollupLateness.toMillis()), Types.POJO(RollupRow.class))
        .uid("rollup").name("rollup 10s/1m/1h/1d")
        .sinkTo(rollups).uid("sink-metric-rollups").name("metric_rollups");
    return intervals;
  }
}
