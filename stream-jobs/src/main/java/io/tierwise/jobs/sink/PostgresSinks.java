package io.tierwise.jobs.sink;

import io.tierwise.jobs.json.Json;
import io.tierwise.jobs.metrics.BlockSizeRow;
import io.tierwise.jobs.metrics.CpuTimes;
import io.tierwise.jobs.metrics.IntervalCacheHealth;
import io.tierwise.jobs.metrics.IoCounters;
import io.tierwise.jobs.metrics.LatencyHistograms;
import io.tierwise.jobs.metrics.RollupFunction;
import io.tierwise.jobs.metrics.RollupRow;
import io.tierwise.jobs.metrics.SourceIo;
import io.tierwise.jobs.metrics.VolumeIoStatsRow;
import io.tierwise.jobs.metrics.VolumeMetricsRow;
import io.tierwise.jobs.metrics.WorkloadHistograms;
import io.tierwise.jobs.recommend.Recommendation;
import io.tierwise.jobs.telemetry.JobTelemetry;
import io.tierwise.jobs.telemetry.TracedSink;
import io.tierwise.jobs.workingset.pipeline.SharedTier;
import io.tierwise.jobs.workingset.pipeline.VolumeAnalysis;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.connector.jdbc.JdbcConnectionOptions;
import org.apache.flink.connector.jdbc.JdbcExecutionOptions;
import org.apache.flink.connector.jdbc.JdbcStatementBuilder;
import org.apache.flink.connector.jdbc.core.datastream.sink.JdbcSink;
import org.apache.flink.util.function.SerializableFunction;

/**
 * JDBC sinks writing the jobs' rows into the PostgreSQL tables of
 * db/migrations/1700000000000_spine.sql as idempotent upserts ({@code INSERT ... ON CONFLICT
 * (primary key) DO UPDATE}): every row carries a full aggregate, so writing it twice is harmless.
 * Batched per {@value #BATCH_ROWS} keys or {@value #BATCH_INTERVAL_MS} ms, and on each checkpoint
 * (at-least-once), the newest row per key ({@link UpsertBatchSink}); a batch goes out as
 * multi-row INSERTs (pgjdbc {@code reWriteBatchedInserts}: one statement per up to 128 rows
 * instead of one per row). The connection role is tierwise_jobs (BYPASSRLS), given in the JDBC URL.
 */
public final class PostgresSinks {
  private static final int BATCH_ROWS = 1000;
  private static final long BATCH_INTERVAL_MS = 200;
  private static final int MAX_RETRIES = 3;

  private static final String VOLUME_METRICS = """
      INSERT INTO volume_metrics_10s (tenant_id, volume_id, interval_start, interval_seconds,
        read_ops, write_ops, read_bytes, write_bytes, cache_hits, cache_misses, read_cache_hits,
        read_cache_misses, evicted_bytes, occupancy_bytes, capacity_bytes, configured_mode,
        effective_mode, dirty_bytes, latency_us_sum, latency_ops, destage_errors, tier_errors,
        latency_us, sources, workload, cpu)
      VALUES (CAST(? AS uuid), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS json),
        CAST(? AS json), ?, ?, CAST(? AS json), CAST(? AS json), CAST(? AS json), CAST(? AS json))
      ON CONFLICT (tenant_id, volume_id, interval_start) DO UPDATE SET
        interval_seconds = EXCLUDED.interval_seconds, read_ops = EXCLUDED.read_ops,
        write_ops = EXCLUDED.write_ops, read_bytes = EXCLUDED.read_bytes,
        write_bytes = EXCLUDED.write_bytes, cache_hits = EXCLUDED.cache_hits,
        cache_misses = EXCLUDED.cache_misses, read_cache_hits = EXCLUDED.read_cache_hits,
        read_cache_misses = EXCLUDED.read_cache_misses, evicted_bytes = EXCLUDED.evicted_bytes,
        occupancy_bytes = EXCLUDED.occupancy_bytes, capacity_bytes = EXCLUDED.capacity_bytes,
        configured_mode = EXCLUDED.configured_mode, effective_mode = EXCLUDED.effective_mode,
        dirty_bytes = EXCLUDED.dirty_bytes, latency_us_sum = EXCLUDED.latency_us_sum,
        latency_ops = EXCLUDED.latency_ops, destage_errors = EXCLUDED.destage_errors,
        tier_errors = EXCLUDED.tier_errors, latency_us = EXCLUDED.latency_us,
        sources = EXCLUDED.sources, workload = EXCLUDED.workload, cpu = EXCLUDED.cpu""";

  private static final String VOLUME_IO_STATS = """
      INSERT INTO volume_io_stats (tenant_id, volume_id, first_interval, last_interval,
        read_ops, write_ops, read_bytes, write_bytes, cache_hits, cache_misses, read_cache_hits,
        read_cache_misses, evicted_bytes, capacity_bytes, updated_at)
      VALUES (CAST(? AS uuid), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now())
      ON CONFLICT (tenant_id, volume_id) DO UPDATE SET
        first_interval = EXCLUDED.first_interval, last_interval = EXCLUDED.last_interval,
        read_ops = EXCLUDED.read_ops, write_ops = EXCLUDED.write_ops,
        read_bytes = EXCLUDED.read_bytes, write_bytes = EXCLUDED.write_bytes,
        cache_hits = EXCLUDED.cache_hits, cache_misses = EXCLUDED.cache_misses,
        read_cache_hits = EXCLUDED.read_cache_hits, read_cache_misses = EXCLUDED.read_cache_misses,
        evicted_bytes = EXCLUDED.evicted_bytes, capacity_bytes = EXCLUDED.capacity_bytes,
        updated_at = now()""";

  private static final String BLOCK_SIZES = """
      INSERT INTO volume_block_sizes (tenant_id, volume_id, direction, bin_label, bin_upper_bytes,
        ops, bytes, updated_at)
      VALUES (CAST(? AS uuid), ?, ?, ?, ?, ?, ?, now())
      ON CONFLICT (tenant_id, volume_id, direction, bin_label) DO UPDATE SET
        bin_upper_bytes = EXCLUDED.bin_upper_bytes, ops = EXCLUDED.ops, bytes = EXCLUDED.bytes,
        updated_at = now()""";

  private static final String METRIC_ROLLUPS = """
      INSERT INTO metric_rollups (tenant_id, scope, scope_id, resolution, window_start, volumes,
        read_ops, write_ops, read_bytes, write_bytes, cache_hits, cache_misses, read_cache_hits,
        read_cache_misses, evicted_bytes, occupancy_bytes, capacity_bytes, latency_us, sources, workload, cpu, updated_at)
      VALUES (CAST(? AS uuid), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS json), CAST(? AS json),
        CAST(? AS json), CAST(? AS json), now())
      ON CONFLICT (tenant_id, scope, scope_id, resolution, window_start) DO UPDATE SET
        volumes = EXCLUDED.volumes, read_ops = EXCLUDED.read_ops, write_ops = EXCLUDED.write_ops,
        read_bytes = EXCLUDED.read_bytes, write_bytes = EXCLUDED.write_bytes,
        cache_hits = EXCLUDED.cache_hits, cache_misses = EXCLUDED.cache_misses,
        read_cache_hits = EXCLUDED.read_cache_hits, read_cache_misses = EXCLUDED.read_cache_misses,
        evicted_bytes = EXCLUDED.evicted_bytes, occupancy_bytes = EXCLUDED.occupancy_bytes,
        capacity_bytes = EXCLUDED.capacity_bytes, latency_us = EXCLUDED.latency_us, sources = EXCLUDED.sources,
        workload = EXCLUDED.workload, cpu = EXCLUDED.cpu, updated_at = now()""";

  private static final String WORKING_SETS = workingSetsSql("volume_working_sets", "volume_id", "");
  private static final String MRCS = mrcsSql("volume_mrcs", "volume_id");

  /** The upsert of a volume's or shared tier's working-set row; {@code extra}: one more integer column. */
  private static String workingSetsSql(String table, String idColumn, String extra) {
    String column = extra.isEmpty() ? "" : ", " + extra;
    return """
        INSERT INTO %1$s (tenant_id, %2$s, window_name, window_start, window_end,
          wss_bytes, wss_read_bytes, wss_write_bytes, sampled_references, sampling_rate, state_bytes%3$s,
          updated_at)
        VALUES (CAST(? AS uuid), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?%4$s, now())
        ON CONFLICT (tenant_id, %2$s, window_name) DO UPDATE SET
          window_start = EXCLUDED.window_start, window_end = EXCLUDED.window_end,
          wss_bytes = EXCLUDED.wss_bytes, wss_read_bytes = EXCLUDED.wss_read_bytes,
          wss_write_bytes = EXCLUDED.wss_write_bytes, sampled_references = EXCLUDED.sampled_references,
          sampling_rate = EXCLUDED.sampling_rate, state_bytes = EXCLUDED.state_bytes%5$s,
          updated_at = now()""".formatted(table, idColumn, column, extra.isEmpty() ? "" : ", ?",
        extra.isEmpty() ? "" : ", " + extra + " = EXCLUDED." + extra);
  }

  /** The upsert of a volume's or shared tier's MRC row, with each eviction policy's curve. */
  private static String mrcsSql(String table, String idColumn) {
    return """
        INSERT INTO %1$s (tenant_id, %2$s, window_name, method, sampling_rate, points, eviction_points, updated_at)
        VALUES (CAST(? AS uuid), ?, ?, ?, ?, CAST(? AS json), CAST(? AS json), now())
        ON CONFLICT (tenant_id, %2$s, window_name) DO UPDATE SET
          method = EXCLUDED.method, sampling_rate = EXCLUDED.sampling_rate, points = EXCLUDED.points,
          eviction_points = EXCLUDED.eviction_points, updated_at = now()""".formatted(table, idColumn);
  }

  private static final String RECOMMENDATIONS = """
      INSERT INTO recommendations (tenant_id, volume_id, tier_bytes, media, policy,
        predicted_hit_ratio, achievable_hit_ratio, target_hit_ratio, inputs, explanation, window_name,
        replicas, offloaded_iops, offloaded_bytes_per_second, predicted_latency_us,
        datastore_latency_us, eviction, tier_write_bytes_per_day, created_at)
      VALUES (CAST(? AS uuid), ?, ?, ?, ?, ?, ?, ?, CAST(? AS jsonb), ?, ?, ?, ?, ?, ?, ?, ?, ?, now())
      ON CONFLICT (tenant_id, volume_id) DO UPDATE SET
        tier_bytes = EXCLUDED.tier_bytes, media = EXCLUDED.media, policy = EXCLUDED.policy,
        predicted_hit_ratio = EXCLUDED.predicted_hit_ratio,
        achievable_hit_ratio = EXCLUDED.achievable_hit_ratio,
        target_hit_ratio = EXCLUDED.target_hit_ratio, inputs = EXCLUDED.inputs,
        explanation = EXCLUDED.explanation, window_name = EXCLUDED.window_name,
        replicas = EXCLUDED.replicas, offloaded_iops = EXCLUDED.offloaded_iops,
        offloaded_bytes_per_second = EXCLUDED.offloaded_bytes_per_second,
        predicted_latency_us = EXCLUDED.predicted_latency_us,
        datastore_latency_us = EXCLUDED.datastore_latency_us, eviction = EXCLUDED.eviction,
        tier_write_bytes_per_day = EXCLUDED.tier_write_bytes_per_day,
        measured_hits = 0, measured_misses = 0,
        measured_seconds = 0, measured_hit_ratio = NULL, measured_at = NULL, created_at = now()""";

  /** The upsert of a shared tier's current recommendation ({@code table}: cluster_ or host_recommendations). */
  private static String sharedTierRecommendationsSql(String table, String idColumn) {
    return """
        INSERT INTO %1$s (tenant_id, %2$s, tier_bytes, media, policy,
          predicted_hit_ratio, achievable_hit_ratio, target_hit_ratio, inputs, explanation, window_name,
          replicas, offloaded_iops, offloaded_bytes_per_second, predicted_latency_us,
          datastore_latency_us, eviction, tier_write_bytes_per_day, volumes, created_at)
        VALUES (CAST(? AS uuid), ?, ?, ?, ?, ?, ?, ?, CAST(? AS jsonb), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now())
        ON CONFLICT (tenant_id, %2$s) DO UPDATE SET
          window_name = EXCLUDED.window_name, volumes = EXCLUDED.volumes, tier_bytes = EXCLUDED.tier_bytes,
          media = EXCLUDED.media, policy = EXCLUDED.policy, eviction = EXCLUDED.eviction, replicas = EXCLUDED.replicas,
          predicted_hit_ratio = EXCLUDED.predicted_hit_ratio, achievable_hit_ratio = EXCLUDED.achievable_hit_ratio,
          target_hit_ratio = EXCLUDED.target_hit_ratio, offloaded_iops = EXCLUDED.offloaded_iops,
          offloaded_bytes_per_second = EXCLUDED.offloaded_bytes_per_second,
          predicted_latency_us = EXCLUDED.predicted_latency_us, datastore_latency_us = EXCLUDED.datastore_latency_us,
          tier_write_bytes_per_day = EXCLUDED.tier_write_bytes_per_day, inputs = EXCLUDED.inputs,
          explanation = EXCLUDED.explanation, created_at = now()""".formatted(table, idColumn);
  }

  /** A shared tier's tables' prefix ("cluster_", "host_") and id column. */
  private static String prefix(SharedTier tier) {
    return tier.name().toLowerCase(Locale.ROOT) + "_";
  }

  private static String idColumn(SharedTier tier) {
    return prefix(tier) + "id";
  }

  /** The tables these sinks write. */
  private static final List<String> TABLES = List.of("volume_metrics_10s", "volume_io_stats", "volume_block_sizes",
      "metric_rollups", "volume_working_sets", "volume_mrcs", "cluster_working_sets", "cluster_mrcs",
      "recommendations", "cluster_recommendations", "host_working_sets", "host_mrcs", "host_recommendations");

  private final String jdbcUrl;

  /** @param jdbcUrl e.g. jdbc:postgresql://127.0.0.1:25432/tierwise?user=tierwise_jobs */
  public PostgresSinks(String jdbcUrl) {
    this.jdbcUrl = jdbcUrl;
  }

  /**
   * Checks that PostgreSQL answers and that the connection's role may insert into and update
   * every table the sinks write.
   *
   * @throws IllegalStateException naming the unreachable server, or the missing tables/grants
   */
  public void requireWritableTables() {
    try (Connection c = DriverManager.getConnection(jdbcUrl);
        PreparedStatement ps = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL"
            + " AND has_table_privilege(?, 'INSERT') AND has_table_privilege(?, 'UPDATE')")) {
      List<String> missing = new ArrayList<>();
      for (String table : TABLES) {
        ps.setString(1, table);
        ps.setString(2, table);
        ps.setString(3, table);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          if (!rs.getBoolean(1)) {
            missing.add(table);
          }
        }
      }
      if (!missing.isEmpty()) {
        throw new IllegalStateException("PostgreSQL tables " + missing + " are missing or not writable by this role"
            + " (run npm run -w @tierwise/db migrate)");
      }
    } catch (SQLException e) {
      throw new IllegalStateException("PostgreSQL at " + jdbcUrl.replaceFirst("\\?.*", "") + ": " + e.getMessage(), e);
    }
  }

  /**
   * volume_metrics_10s, one row per (volume, interval): its counters, its cache health (modes,
   * dirty bytes, device errors, and the latency sum (µs) and I/Os per ioLength bin as JSON objects
   * keyed by the bin's upper bound in bytes, "4096"; "&gt;524288" for the last bin, non-empty bins
   * only; NULL when the agent reported no cache mode) and the documents of the volume's 10 s
   * window, as a metric_rollups row's (docs/rollups.md). Each batched write is a span related to the
   * consume spans of the records it writes ({@link TracedSink}).
   */
  public Sink<VolumeMetricsRow> volumeMetrics(JobTelemetry telemetry) {
    return traced("volume_metrics_10s", telemetry, r -> Arrays.asList(r.traceparents), VOLUME_METRICS,
        r -> key(r.tenantId, r.volumeId, Math.floorDiv(r.intervalStartUnixNano, 1000)), (ps, r) -> {
      ps.setString(1, r.tenantId);
      ps.setString(2, r.volumeId);
      ps.setObject(3, timestamp(r.intervalStartUnixNano));
      ps.setFloat(4, (float) r.intervalSeconds);
      int next = setCounters(ps, 5, r.io);
      ps.setLong(next, r.occupancyBytes);
      ps.setLong(next + 1, r.capacityBytes);
      setCacheHealth(ps, next + 2, r.health);
      setDocuments(ps, next + 2 + CACHE_HEALTH_TYPES.length, r.latency, r.sources, r.workload, r.cpu);
    });
  }

  /** SQL types of the cache health columns, in VOLUME_METRICS' order (json as text). */
  private static final int[] CACHE_HEALTH_TYPES = {Types.VARCHAR, Types.VARCHAR, Types.BIGINT, Types.VARCHAR,
      Types.VARCHAR, Types.BIGINT, Types.BIGINT};

  /** Binds the cache health columns from {@code first} on: all NULL when {@code h} is null. */
  private static void setCacheHealth(PreparedStatement ps, int first, IntervalCacheHealth h) throws SQLException {
    if (h == null) {
      for (int i = 0; i < CACHE_HEALTH_TYPES.length; i++) {
        ps.setNull(first + i, CACHE_HEALTH_TYPES[i]);
      }
      return;
    }
    ps.setString(first, h.configuredMode);
    ps.setString(first + 1, h.effectiveMode);
    ps.setLong(first + 2, h.dirtyBytes);
    ps.setString(first + 3, Json.latencySumsPerBin(h.latencySumMicros, h.latencyOps));
    ps.setString(first + 4, Json.opsPerBin(h.latencyOps));
    ps.setLong(first + 5, h.destageErrors);
    ps.setLong(first + 6, h.tierErrors);
  }

  /** volume_io_stats, one row per volume. */
  public Sink<VolumeIoStatsRow> volumeIoStats() {
    return sink(VOLUME_IO_STATS, r -> key(r.tenantId, r.volumeId), (ps, r) -> {
      ps.setString(1, r.tenantId);
      ps.setString(2, r.volumeId);
      ps.setObject(3, timestamp(r.firstIntervalUnixNano));
      ps.setObject(4, timestamp(r.lastIntervalUnixNano));
      int next = setCounters(ps, 5, r.io);
      ps.setLong(next, r.capacityBytes);
    });
  }

  /** volume_block_sizes, one row per (volume, direction, ioLength bin). */
  public Sink<BlockSizeRow> blockSizes() {
    return sink(BLOCK_SIZES, r -> key(r.tenantId, r.volumeId, r.direction, r.binLabel), (ps, r) -> {
      ps.setString(1, r.tenantId);
      ps.setString(2, r.volumeId);
      ps.setString(3, r.direction);
      ps.setString(4, r.binLabel);
      if (r.binUpperBytes == null) {
        ps.setNull(5, Types.BIGINT);
      } else {
        ps.setLong(5, r.binUpperBytes);
      }
      ps.setLong(6, r.ops);
      ps.setLong(7, r.bytes);
    });
  }

  /**
   * metric_rollups, one row per (scope, resolution, window): a complete window value, so the
   * upsert replaces (see {@link RollupFunction} on exactly-once).
   */
  public Sink<RollupRow> metricRollups() {
    return sink(METRIC_ROLLUPS, r -> key(r.tenantId, r.scope, r.scopeId, r.resolution, r.windowStartSeconds),
        (ps, r) -> {
      ps.setString(1, r.tenantId);
      ps.setString(2, r.scope);
      ps.setString(3, r.scopeId);
      ps.setString(4, r.resolution);
      ps.setObject(5, Instant.ofEpochSecond(r.windowStartSeconds).atOffset(ZoneOffset.UTC));
      ps.setInt(6, r.volumes);
      int next = setCounters(ps, 7, r.io);
      ps.setLong(next, r.occupancyBytes);
      ps.setLong(next + 1, r.capacityBytes);
      setDocuments(ps, next + 2, r.latency, r.sources, r.workload, r.cpu);
    });
  }

  /** Binds a window's documents (latency_us, sources, workload, cpu as JSON text) from {@code first} on. */
  private static void setDocuments(PreparedStatement ps, int first, LatencyHistograms latency, SourceIo sources,
      WorkloadHistograms workload, CpuTimes cpu) throws SQLException {
    ps.setString(first, Json.latency(latency));
    ps.setString(first + 1, Json.sources(sources));
    ps.setString(first + 2, Json.workload(workload));
    ps.setString(first + 3, Json.cpu(cpu));
  }

  /** volume_working_sets, one row per window. */
  public Sink<VolumeAnalysis> workingSets() {
    return sink(WORKING_SETS, a -> key(a.tenantId, a.volumeId, a.windowName), (ps, a) -> setWorkingSet(ps, a, a.volumeId));
  }

  /** Sets the working-set columns of a volume's or shared tier's row; returns the next index. */
  private static int setWorkingSet(PreparedStatement ps, VolumeAnalysis a, String id) throws SQLException {
    ps.setString(1, a.tenantId);
    ps.setString(2, id);
    ps.setString(3, a.windowName);
    ps.setObject(4, timestamp(a.windowStartUnixNano));
    ps.setObject(5, timestamp(a.windowEndUnixNano));
    ps.setLong(6, a.wssBytes);
    ps.setLong(7, a.wssReadBytes);
    ps.setLong(8, a.wssWriteBytes);
    ps.setLong(9, a.sampledReferences);
    ps.setDouble(10, a.samplingRate);
    ps.setLong(11, a.stateBytes);
    return 12;
  }

  /** volume_mrcs, one row per window. */
  public Sink<VolumeAnalysis> missRatioCurves() {
    return sink(MRCS, a -> key(a.tenantId, a.volumeId, a.windowName), (ps, a) -> setMrc(ps, a, a.volumeId));
  }

  private static void setMrc(PreparedStatement ps, VolumeAnalysis a, String id) throws SQLException {
    ps.setString(1, a.tenantId);
    ps.setString(2, id);
    ps.setString(3, a.windowName);
    ps.setString(4, a.method);
    ps.setDouble(5, a.samplingRate);
    ps.setString(6, Json.mrcPoints(a.mrcCacheBytes, a.mrcMissRatios));
    ps.setString(7, Json.evictionPoints(a.mrcCacheBytes, a.evictions, a.evictionMissRatios));
  }

  /** recommendations, the current one per volume. */
  public Sink<Recommendation> recommendations() {
    return sink(RECOMMENDATIONS, r -> key(r.tenantId, r.volumeId), (ps, r) -> setPrediction(ps, r, r.volumeId));
  }

  /** A shared tier's {@code <kind>_working_sets}, one row per window (kind {@code cluster} or {@code host}). */
  public Sink<VolumeAnalysis> sharedTierWorkingSets(SharedTier tier) {
    return sink(workingSetsSql(prefix(tier) + "working_sets", idColumn(tier), "volumes"),
        a -> key(a.tenantId, tier.id(a), a.windowName), (ps, a) -> ps.setInt(setWorkingSet(ps, a, tier.id(a)), a.volumes));
  }

  /** A shared tier's {@code <kind>_mrcs}, one row per window. */
  public Sink<VolumeAnalysis> sharedTierMissRatioCurves(SharedTier tier) {
    return sink(mrcsSql(prefix(tier) + "mrcs", idColumn(tier)), a -> key(a.tenantId, tier.id(a), a.windowName),
        (ps, a) -> setMrc(ps, a, tier.id(a)));
  }

  /** A shared tier's {@code <kind>_recommendations}, the current one per tier. */
  public Sink<Recommendation> sharedTierRecommendations(SharedTier tier) {
    return sink(sharedTierRecommendationsSql(prefix(tier) + "recommendations", idColumn(tier)),
        r -> key(r.tenantId, tier.id(r.clusterId, r.hostId)),
        (ps, r) -> ps.setInt(setPrediction(ps, r, tier.id(r.clusterId, r.hostId)), r.volumes));
  }

  /** Sets the columns a volume's and a shared tier's recommendation share (same order); returns the next index. */
  private static int setPrediction(PreparedStatement ps, Recommendation r, String id) throws SQLException {
    ps.setString(1, r.tenantId);
    ps.setString(2, id);
    ps.setLong(3, r.tierBytes);
    ps.setString(4, r.media);
    ps.setString(5, r.policy);
    ps.setDouble(6, r.predictedHitRatio);
    ps.setDouble(7, r.achievableHitRatio);
    ps.setDouble(8, r.targetHitRatio);
    ps.setString(9, r.inputsJson);
    ps.setString(10, r.explanation);
    ps.setString(11, r.windowName);
    ps.setInt(12, r.replicas);
    ps.setDouble(13, r.offloadedIops);
    ps.setDouble(14, r.offloadedBytesPerSecond);
    ps.setDouble(15, r.predictedLatencyMicros);
    ps.setDouble(16, r.datastoreLatencyMicros);
    ps.setString(17, r.eviction);
    ps.setDouble(18, r.tierWriteBytesPerDay);
    return 19;
  }

  /** The upsert {@code sql} of rows keyed by {@code primaryKey} (its table's), batched. */
  private <T> Sink<T> sink(String sql, SerializableFunction<T, Object> primaryKey, JdbcStatementBuilder<T> binder) {
    return new UpsertBatchSink<>(jdbc(sql, binder), primaryKey, BATCH_ROWS, BATCH_INTERVAL_MS);
  }

  /** {@link #sink}, every batch's execution a span ({@link TracedSink}). */
  private <T> Sink<T> traced(String table, JobTelemetry telemetry, SerializableFunction<T, List<String>> traceparents,
      String sql, SerializableFunction<T, Object> primaryKey, JdbcStatementBuilder<T> binder) {
    return new UpsertBatchSink<>(new TracedSink<>(jdbc(sql, binder), table, traceparents, telemetry), primaryKey,
        BATCH_ROWS, BATCH_INTERVAL_MS);
  }

  /** The JDBC sink of {@code sql}: it writes only when flushed (the batching is {@link UpsertBatchSink}'s). */
  private <T> Sink<T> jdbc(String sql, JdbcStatementBuilder<T> binder) {
    return JdbcSink.<T>builder()
        .withQueryStatement(sql, binder)
        .withExecutionOptions(JdbcExecutionOptions.builder()
            .withBatchSize(Integer.MAX_VALUE)
            .withBatchIntervalMs(0)
            .withMaxRetries(MAX_RETRIES)
            .build())
        .buildAtLeastOnce(new JdbcConnectionOptions.JdbcConnectionOptionsBuilder()
            .withUrl(JdbcUrls.withParameter(jdbcUrl, "reWriteBatchedInserts", "true"))
            .withDriverName("org.postgresql.Driver")
            .build());
  }

  /** A primary key of the columns' values (nulls allowed: a missing id is a value too). */
  private static Object key(Object... columns) {
    return Arrays.asList(columns);
  }

  /** Binds the nine counters from parameter {@code first}; returns the next parameter index. */
  private static int setCounters(PreparedStatement ps, int first, IoCounters c) throws SQLException {
    long[] values = {c.readOps, c.writeOps, c.readBytes, c.writeBytes, c.cacheHits, c.cacheMisses,
        c.readCacheHits, c.readCacheMisses, c.evictedBytes};
    for (int i = 0; i < values.length; i++) {
      ps.setLong(first + i, values[i]);
    }
    return first + values.length;
  }

  /** A timestamptz value from Unix epoch nanoseconds (PostgreSQL keeps microseconds). */
  private static OffsetDateTime timestamp(long unixNano) {
    return Instant.ofEpochSecond(0, unixNano).atOffset(ZoneOffset.UTC);
  }
}
