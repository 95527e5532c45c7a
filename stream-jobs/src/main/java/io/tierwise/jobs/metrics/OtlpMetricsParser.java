package io.tierwise.jobs.metrics;

import com.google.protobuf.InvalidProtocolBufferException;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.tierwise.jobs.ingest.InvalidRecordException;
import io.tierwise.jobs.ingest.PayloadParser;
import io.tierwise.proto.v1.IngestRecord;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Parses the payload of a telemetry.metrics.v1 record, an OTLP
 * {@code ExportMetricsServiceRequest} with the agent's metrics (proto/METRICS.md), into one
 * {@link IntervalMetrics} per (volume, interval).
 *
 * <p>Read: {@code tierwise.io.operations}, {@code tierwise.io.bytes} and {@code tierwise.io.latency}
 * of every {@code io.source} (frontend into {@link IoCounters} and {@link LatencyHistograms}; cache,
 * peer and datastore into {@link SourceIo}); {@code tierwise.io.size} (histogram over the vscsiStats ioLength
 * bins) and {@code tierwise.io.size.bytes}; {@code tierwise.cache.hits}, {@code .misses},
 * {@code .evictions}; gauges {@code tierwise.cache.occupancy} and {@code .capacity}; for the cache
 * health ({@link CacheHealth}) the resource attribute {@code tierwise.cache.mode}, gauges
 * {@code tierwise.cache.dirty} and {@code tierwise.replication.peers}, the sums
 * {@code tierwise.cache.fallbacks}, {@code tierwise.cache.destage.errors} and
 * {@code tierwise.cache.tier.errors} (0 when absent) and the frontend latency histograms' sum and
 * count; the CPU times {@code system.cpu.time} and {@code tierwise.consumer.cpu.time} ({@link CpuTimes}). Other
 * metrics are ignored. Resource attributes {@code host.id} and {@code tierwise.cluster.id} (both optional)
 * name the host and cluster the volume's rollups add to. Sums and histograms must be delta temporality. Data points are grouped into
 * intervals by their {@code time_unix_nano} (the interval end), the start taken from
 * {@code start_time_unix_nano} (gauges may leave it 0).
 *
 * <p>A violation (missing volume id, unknown direction, source or size bin, cumulative temporality,
 * other histogram bounds, negative, non-finite or out-of-limit values, interval with no start)
 * rejects the whole record with a message naming the metric and the problem. Ingest refuses the
 * same batches first (services/ingest/src/validation); {@code proto/testdata/invalid_metrics.json}
 * lists the cases both must refuse.
 */
public final class OtlpMetricsParser implements PayloadParser<IntervalMetrics> {
  private static final long serialVersionUID = 1L;

  /** Resource attribute holding the pseudonymous volume id. */
  public static final String VOLUME_ID_ATTRIBUTE = "tierwise.volume.id";
  /** Resource attribute holding the pseudonymous host id (OpenTelemetry semantic conventions). */
  public static final String HOST_ID_ATTRIBUTE = "host.id";
  /** Resource attribute holding the pseudonymous cluster id (optional). */
  public static final String CLUSTER_ID_ATTRIBUTE = "tierwise.cluster.id";
  /** Resource attribute naming an imported source of the figures (proto/METRICS.md): only vscsistats. */
  public static final String VOLUME_SOURCE_ATTRIBUTE = "tierwise.volume.source";
  /** Resource attribute holding the cache mode at interval end. */
  public static final String CACHE_MODE_ATTRIBUTE = "tierwise.cache.mode";
  /** Largest value of a delta data point or histogram bucket, 2^48 - 1 (proto/METRICS.md "Limits"). */
  public static final long MAX_DELTA_VALUE = (1L << 48) - 1;
  /** Largest gauge value, 2^62 (proto/METRICS.md "Limits"). */
  public static final long MAX_GAUGE_VALUE = 1L << 62;

  @Override
  public List<IntervalMetrics> parse(IngestRecord record) throws InvalidRecordException {
    ExportMetricsServiceRequest request;
    try {
      request = ExportMetricsServiceRequest.parseFrom(record.getPayload());
    } catch (InvalidProtocolBufferException e) {
      throw new InvalidRecordException("payload is not an OTLP ExportMetricsServiceRequest: " + e.getMessage(), e);
    }
    List<IntervalMetrics> out = new ArrayList<>();
    for (ResourceMetrics resource : request.getResourceMetricsList()) {
      out.addAll(parseResource(record.getTenantId(), resource));
    }
    long batch = batchHash(record.getBatchId());
    for (IntervalMetrics m : out) {
      m.recordId = recordId(batch, m.intervalEndUnixNano);
    }
    return out;
  }

  /**
   * An interval's identity ({@link IntervalMetrics#recordId}): the batch id's hash
   * ({@link #batchHash}) mixed with the interval end by a multiply (Fibonacci hashing, Knuth,
   * TAOCP vol. 3, 6.4), so the intervals of one record differ and a resent record's are equal.
   */
  static long recordId(long batchHash, long intervalEndUnixNano) {
    return batchHash ^ (intervalEndUnixNano * 0x9E3779B97F4A7C15L);
  }

  /** The first 8 bytes of the SHA-256 of a batch id's UTF-8 bytes: ids of different batches collide with probability 2^-64. */
  static long batchHash(String batchId) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(batchId.getBytes(StandardCharsets.UTF_8));
      return ByteBuffer.wrap(digest).getLong();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  private static List<IntervalMetrics> parseResource(String tenantId, ResourceMetrics resource)
      throws InvalidRecordException {
    String volumeId = stringAttribute(resource.getResource().getAttributesList(), VOLUME_ID_ATTRIBUTE);
    if (volumeId == null || volumeId.isEmpty()) {
      throw new InvalidRecordException("resource attribute " + VOLUME_ID_ATTRIBUTE + " is missing");
    }
    Map<Long, IntervalMetrics> byEnd = new TreeMap<>();
    for (ScopeMetrics scope : resource.getScopeMetricsList()) {
      for (Metric metric : scope.getMetricsList()) {
        new MetricReader(metric, tenantId, volumeId, byEnd).read();
      }
    }
    String hostId = stringAttribute(resource.getResource().getAttributesList(), HOST_ID_ATTRIBUTE);
    String clusterId = stringAttribute(resource.getResource().getAttributesList(), CLUSTER_ID_ATTRIBUTE);
    String mode = stringAttribute(resource.getResource().getAttributesList(), CACHE_MODE_ATTRIBUTE);
    if (mode != null && !mode.equals("write-through") && !mode.equals("write-back")) {
      throw new InvalidRecordException("volume " + volumeId + ": resource attribute " + CACHE_MODE_ATTRIBUTE + " '"
          + mode + "' is not write-through or write-back");
    }
    String source = stringAttribute(resource.getResource().getAttributesList(), VOLUME_SOURCE_ATTRIBUTE);
    if (source != null && !source.equals("vscsistats")) {
      throw new InvalidRecordException("volume " + volumeId + ": resource attribute " + VOLUME_SOURCE_ATTRIBUTE + " '"
          + source + "' is not vscsistats");
    }
    for (IntervalMetrics m : byEnd.values()) {
      m.health.mode = mode;
      m.hostId = hostId == null || hostId.isEmpty() ? null : hostId;
      m.clusterId = clusterId == null || clusterId.isEmpty() ? null : clusterId;
      if (m.intervalStartUnixNano == 0 || m.intervalStartUnixNano >= m.intervalEndUnixNano) {
        throw new InvalidRecordException("volume " + volumeId + ": interval ending at "
            + m.intervalEndUnixNano + " ns has no valid start_time_unix_nano ("
            + m.intervalStartUnixNano + ")");
      }
    }
    return new ArrayList<>(byEnd.values());
  }

  /** The string value of attribute {@code key}, or null when absent. */
  static String stringAttribute(List<KeyValue> attributes, String key) {
    for (KeyValue kv : attributes) {
      if (kv.getKey().equals(key)) {
        return kv.getValue().getStringValue();
      }
    }
    return null;
  }

  /** Reads one metric's data points into the intervals of one volume. */
  private static final class MetricReader {
    private final Metric metric;
    private final String tenantId;
    private final String volumeId;
    private final Map<Long, IntervalMetrics> byEnd;

    MetricReader(Metric metric, String tenantId, String volumeId, Map<Long, IntervalMetrics> byEnd) {
      this.metric = metric;
      this.tenantId = tenantId;
      this.volumeId = volumeId;
      this.byEnd = byEnd;
    }

    void read() throws InvalidRecordException {
      switch (metric.getName()) {
        case "tierwise.io.operations", "tierwise.io.bytes" -> {
          boolean ops = metric.getName().endsWith("operations");
          for (NumberDataPoint p : deltaSum()) {
            int source = source(p.getAttributesList());
            long v = count(p);
            boolean write = isWrite(p.getAttributesList());
            IntervalMetrics m = interval(p.getStartTimeUnixNano(), p.getTimeUnixNano());
            if (source >= 0) {
              SaturatingCounters.addAt(ops ? m.sources.ops : m.sources.bytes, SourceIo.slot(source, write), v);
            } else if (ops && write) {
              m.io.writeOps = SaturatingCounters.add(m.io.writeOps, v);
            } else if (ops) {
              m.io.readOps = SaturatingCounters.add(m.io.readOps, v);
            } else if (write) {
              m.io.writeBytes = SaturatingCounters.add(m.io.writeBytes, v);
            } else {
              m.io.readBytes = SaturatingCounters.add(m.io.readBytes, v);
            }
          }
        }
        case "tierwise.io.size" -> readSizeHistogram();
        case "tierwise.io.latency" -> readLatencyHistogram();
        case "tierwise.io.seek_distance", "tierwise.io.seek_distance.closest", "tierwise.io.outstanding",
            "tierwise.io.interarrival", "tierwise.io.alignment", "tierwise.io.latency.vscsistats" ->
            readWorkloadHistogram(WorkloadHistograms.Family.of(metric.getName()));
        case "tierwise.io.alignment.misaligned_bytes", "tierwise.io.alignment.blocks" -> readAlignmentWork();
        case "tierwise.io.size.bytes" -> {
          for (NumberDataPoint p : deltaSum()) {
            String label = stringAttribute(p.getAttributesList(), "tierwise.io.size_bin");
            int bin = label == null ? -1 : IoLengthBins.indexOf(label);
            if (bin < 0) {
              throw invalid("tierwise.io.size_bin '" + label + "' is not a vscsiStats ioLength bin");
            }
            BlockSizeCounts sizes = interval(p.getStartTimeUnixNano(), p.getTimeUnixNano()).blockSizes;
            SaturatingCounters.addAt(isWrite(p.getAttributesList()) ? sizes.writeBytes : sizes.readBytes, bin, count(p));
          }
        }
        case "tierwise.cache.hits", "tierwise.cache.misses" -> {
          boolean hits = metric.getName().endsWith("hits");
          for (NumberDataPoint p : deltaSum()) {
            long v = count(p);
            boolean write = isWrite(p.getAttributesList());
            IoCounters io = interval(p.getStartTimeUnixNano(), p.getTimeUnixNano()).io;
            if (hits) {
              io.cacheHits = SaturatingCounters.add(io.cacheHits, v);
              io.readCacheHits = SaturatingCounters.add(io.readCacheHits, write ? 0 : v);
            } else {
              io.cacheMisses = SaturatingCounters.add(io.cacheMisses, v);
              io.readCacheMisses = SaturatingCounters.add(io.readCacheMisses, write ? 0 : v);
            }
          }
        }
        case "tierwise.cache.evictions" -> {
          for (NumberDataPoint p : deltaSum()) {
            IoCounters io = interval(p.getStartTimeUnixNano(), p.getTimeUnixNano()).io;
            io.evictedBytes = SaturatingCounters.add(io.evictedBytes, count(p));
          }
        }
        case "tierwise.cache.occupancy" -> {
          for (NumberDataPoint p : gauge()) {
            interval(p.getStartTimeUnixNano(), p.getTimeUnixNano()).occupancyBytes = gaugeValue(p);
          }
        }
        case "tierwise.cache.capacity" -> {
          for (NumberDataPoint p : gauge()) {
            interval(p.getStartTimeUnixNano(), p.getTimeUnixNano()).capacityBytes = gaugeValue(p);
          }
        }
        case "tierwise.cache.dirty" -> {
          for (NumberDataPoint p : gauge()) {
            interval(p.getStartTimeUnixNano(), p.getTimeUnixNano()).health.dirtyBytes = gaugeValue(p);
          }
        }
        case "tierwise.replication.peers" -> {
          for (NumberDataPoint p : gauge()) {
            interval(p.getStartTimeUnixNano(), p.getTimeUnixNano()).health.healthyPeers = gaugeValue(p);
          }
        }
        case "tierwise.cache.fallbacks", "tierwise.cache.destage.errors", "tierwise.cache.tier.errors" -> {
          for (NumberDataPoint p : deltaSum()) {
            CacheHealth health = interval(p.getStartTimeUnixNano(), p.getTimeUnixNano()).health;
            long v = count(p);
            switch (metric.getName()) {
              case "tierwise.cache.fallbacks" -> health.fallbacks = SaturatingCounters.add(health.fallbacks, v);
              case "tierwise.cache.destage.errors" -> health.destageErrors = SaturatingCounters.add(health.destageErrors, v);
              default -> health.tierErrors = SaturatingCounters.add(health.tierErrors, v);
            }
          }
        }
        case "system.cpu.time", "tierwise.consumer.cpu.time" -> readCpuTime(metric.getName().startsWith("system."));
        default -> {
          // Other agent metrics (destaged, population, destage rate...) are not stored yet.
        }
      }
    }

    private void readSizeHistogram() throws InvalidRecordException {
      for (HistogramDataPoint p : deltaHistogram()) {
        if (!IoLengthBins.matches(p.getExplicitBoundsList())) {
          throw invalid("explicit_bounds " + p.getExplicitBoundsList() + " are not the vscsiStats ioLength bins");
        }
        if (p.getBucketCountsCount() != IoLengthBins.COUNT) {
          throw invalid(p.getBucketCountsCount() + " bucket counts, expected " + IoLengthBins.COUNT);
        }
        checkBuckets(p);
        long[] ops = isWrite(p.getAttributesList())
            ? interval(p.getStartTimeUnixNano(), p.getTimeUnixNano()).blockSizes.writeOps
            : interval(p.getStartTimeUnixNano(), p.getTimeUnixNano()).blockSizes.readOps;
        for (int i = 0; i < IoLengthBins.COUNT; i++) {
          SaturatingCounters.addAt(ops, i, p.getBucketCounts(i));
        }
      }
    }

    private void readLatencyHistogram() throws InvalidRecordException {
      for (HistogramDataPoint p : deltaHistogram()) {
        int source = source(p.getAttributesList());
        if (!LatencyHistograms.matches(p.getExplicitBoundsList())) {
          throw invalid("explicit_bounds " + p.getExplicitBoundsList() + " are not the latency bounds of METRICS.md");
        }
        if (p.getBucketCountsCount() != LatencyHistograms.BUCKETS) {
          throw invalid(p.getBucketCountsCount() + " bucket counts, expected " + LatencyHistograms.BUCKETS);
        }
        String label = stringAttribute(p.getAttributesList(), "tierwise.io.size_bin");
        int bin = label == null ? -1 : IoLengthBins.indexOf(label);
        if (bin < 0) {
          throw invalid("tierwise.io.size_bin '" + label + "' is not a vscsiStats ioLength bin");
        }
        checkBuckets(p);
        long[] buckets = p.getBucketCountsList().stream().mapToLong(Long::longValue).toArray();
        IntervalMetrics m = interval(p.getStartTimeUnixNano(), p.getTimeUnixNano());
        if (source >= 0) {
          boolean write = isWrite(p.getAttributesList());
          m.sources.addLatency(source, write, buckets);
          m.measuredLatency.add(source, write, bin, Arrays.stream(buckets).sum(), p.getSum());
          continue;
        }
        m.latency.add(isWrite(p.getAttributesList()), bin, buckets);
        m.health.latencySumMicros[bin] += p.getSum();
        SaturatingCounters.addAt(m.health.latencyOps, bin, Arrays.stream(buckets).reduce(0, SaturatingCounters::add));
      }
    }

    /**
     * system.cpu.time (the host's, per cpu.mode) and tierwise.consumer.cpu.time (per cpu.mode and
     * tierwise.consumer.kind): seconds as doubles, kept in microseconds with the interval's length.
     */
    private void readCpuTime(boolean host) throws InvalidRecordException {
      for (NumberDataPoint p : deltaSum()) {
        String mode = stringAttribute(p.getAttributesList(), "cpu.mode");
        IntervalMetrics m = interval(p.getStartTimeUnixNano(), p.getTimeUnixNano());
        long micros = seconds(p);
        long wallMicros = Math.max(0, (p.getTimeUnixNano() - p.getStartTimeUnixNano()) / 1000);
        if (host) {
          int index = CpuTimes.hostMode(mode);
          if (index < 0) {
            throw invalid("cpu.mode '" + mode + "' is not " + String.join(", ", CpuTimes.HOST_MODES));
          }
          SaturatingCounters.addAt(m.cpu.hostMicros, index, micros);
          m.cpu.hostWallMicros = wallMicros;
          continue;
        }
        int index = CpuTimes.consumerMode(mode);
        if (index < 0) {
          throw invalid("cpu.mode '" + mode + "' is not user or system");
        }
        String kind = stringAttribute(p.getAttributesList(), "tierwise.consumer.kind");
        int k = CpuTimes.consumerKind(kind);
        if (k < 0) {
          throw invalid("tierwise.consumer.kind '" + kind + "' is not process or cgroup");
        }
        SaturatingCounters.addAt(m.cpu.consumerMicros, k * CpuTimes.CONSUMER_MODES.length + index, micros);
        m.cpu.consumerWallMicros[k] = wallMicros;
      }
    }

    /** A CPU time in seconds (a double, or an int), as microseconds: 0 to {@link #MAX_DELTA_VALUE} seconds. */
    private long seconds(NumberDataPoint p) throws InvalidRecordException {
      double seconds = switch (p.getValueCase()) {
        case AS_DOUBLE -> p.getAsDouble();
        case AS_INT -> p.getAsInt();
        default -> throw invalid("data point without a value");
      };
      if (!Double.isFinite(seconds)) {
        throw invalid("value " + seconds + " is not a finite number");
      }
      if (seconds < 0) {
        throw invalid("negative value " + seconds);
      }
      if (seconds > MAX_DELTA_VALUE) {
        throw invalid("value " + seconds + " is above the limit " + MAX_DELTA_VALUE + " (proto/METRICS.md \"Limits\")");
      }
      return Math.round(seconds * 1e6);
    }

    /** tierwise.io.alignment.misaligned_bytes and .blocks: counters of {@link WorkloadHistograms.Family#ALIGNMENT_WORK}. */
    private void readAlignmentWork() throws InvalidRecordException {
      boolean bytes = metric.getName().endsWith("misaligned_bytes");
      for (NumberDataPoint p : deltaSum()) {
        int cell = WorkloadHistograms.MISALIGNED_BYTES;
        if (!bytes) {
          String layout = stringAttribute(p.getAttributesList(), "tierwise.io.alignment.layout");
          if (!"issued".equals(layout) && !"aligned".equals(layout)) {
            throw invalid("tierwise.io.alignment.layout '" + layout + "' is not issued or aligned");
          }
          cell = "issued".equals(layout) ? WorkloadHistograms.BLOCKS_ISSUED : WorkloadHistograms.BLOCKS_ALIGNED;
        }
        int direction = isWrite(p.getAttributesList()) ? WorkloadHistograms.WRITE : WorkloadHistograms.READ;
        interval(p.getStartTimeUnixNano(), p.getTimeUnixNano()).workload.addAlignmentWork(direction, cell, count(p));
      }
    }

    private void readWorkloadHistogram(WorkloadHistograms.Family family) throws InvalidRecordException {
      boolean signed = family.bounds[0] < 0;
      for (HistogramDataPoint p : deltaHistogram()) {
        if (!SparseCounts.boundsMatch(p.getExplicitBoundsList(), family.bounds)) {
          throw invalid("explicit_bounds " + p.getExplicitBoundsList() + " are not the vscsiStats bounds of " + family.metric);
        }
        if (p.getBucketCountsCount() != family.buckets()) {
          throw invalid(p.getBucketCountsCount() + " bucket counts, expected " + family.buckets());
        }
        if (signed && p.hasSum()) {
          throw invalid("a seek distance histogram has no sum (its values are signed)");
        }
        String direction = stringAttribute(p.getAttributesList(), "io.direction");
        int index = Arrays.asList(WorkloadHistograms.DIRECTIONS).indexOf(direction);
        if (index < 0 || index >= family.directions) {
          throw invalid("io.direction '" + direction + "' is not "
              + (family.directions == 1 ? "all" : "read, write or all"));
        }
        checkBuckets(p);
        interval(p.getStartTimeUnixNano(), p.getTimeUnixNano()).workload
            .add(family, index, p.getBucketCountsList().stream().mapToLong(Long::longValue).toArray());
      }
    }

    private List<HistogramDataPoint> deltaHistogram() throws InvalidRecordException {
      if (!metric.hasHistogram()) {
        throw invalid("is not a histogram");
      }
      if (metric.getHistogram().getAggregationTemporality()
          != AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA) {
        throw invalid("temporality " + metric.getHistogram().getAggregationTemporality() + " is not delta");
      }
      return metric.getHistogram().getDataPointsList();
    }

    private List<NumberDataPoint> deltaSum() throws InvalidRecordException {
      if (!metric.hasSum()) {
        throw invalid("is not a sum");
      }
      if (metric.getSum().getAggregationTemporality() != AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA) {
        throw invalid("temporality " + metric.getSum().getAggregationTemporality() + " is not delta");
      }
      return metric.getSum().getDataPointsList();
    }

    private List<NumberDataPoint> gauge() throws InvalidRecordException {
      if (!metric.hasGauge()) {
        throw invalid("is not a gauge");
      }
      return metric.getGauge().getDataPointsList();
    }

    /** -1 for io.source=frontend, else the {@link SourceIo#SOURCES} index of the point's source. */
    private int source(List<KeyValue> attributes) throws InvalidRecordException {
      String source = stringAttribute(attributes, "io.source");
      if (source == null) {
        throw invalid("data point without io.source");
      }
      int index = SourceIo.sourceIndex(source);
      if (index < 0 && !source.equals("frontend")) {
        throw invalid("io.source '" + source + "' is not frontend, cache, peer or datastore");
      }
      return index;
    }

    private boolean isWrite(List<KeyValue> attributes) throws InvalidRecordException {
      String direction = stringAttribute(attributes, "io.direction");
      if ("read".equals(direction)) {
        return false;
      }
      if ("write".equals(direction)) {
        return true;
      }
      throw invalid("io.direction '" + direction + "' is not read or write");
    }

    /** A delta sum's value: 0 to {@link #MAX_DELTA_VALUE}. */
    private long count(NumberDataPoint p) throws InvalidRecordException {
      return value(p, MAX_DELTA_VALUE);
    }

    /** A gauge's value: 0 to {@link #MAX_GAUGE_VALUE}. */
    private long gaugeValue(NumberDataPoint p) throws InvalidRecordException {
      return value(p, MAX_GAUGE_VALUE);
    }

    private long value(NumberDataPoint p, long max) throws InvalidRecordException {
      if (p.getValueCase() == NumberDataPoint.ValueCase.AS_DOUBLE && !(Double.isFinite(p.getAsDouble()) && p.getAsDouble() >= 0)) {
        throw invalid(Double.isFinite(p.getAsDouble()) ? "negative value " + p.getAsDouble() : "value " + p.getAsDouble() + " is not a finite number");
      }
      long v = switch (p.getValueCase()) {
        case AS_INT -> p.getAsInt();
        case AS_DOUBLE -> Math.round(p.getAsDouble());
        default -> throw invalid("data point without a value");
      };
      if (v < 0) {
        throw invalid("negative value " + v);
      }
      if (v > max) {
        throw invalid("value " + v + " is above the limit " + max + " (proto/METRICS.md \"Limits\")");
      }
      return v;
    }

    /** Every bucket count at most {@link #MAX_DELTA_VALUE} (fixed64: compared unsigned), the sum finite and >= 0. */
    private void checkBuckets(HistogramDataPoint p) throws InvalidRecordException {
      for (long c : p.getBucketCountsList()) {
        if (Long.compareUnsigned(c, MAX_DELTA_VALUE) > 0) {
          throw invalid("bucket count " + Long.toUnsignedString(c) + " is above the limit " + MAX_DELTA_VALUE
              + " (proto/METRICS.md \"Limits\")");
        }
      }
      if (p.hasSum() && !(Double.isFinite(p.getSum()) && p.getSum() >= 0)) {
        throw invalid("sum " + p.getSum() + " is not a finite number >= 0");
      }
    }

    private IntervalMetrics interval(long startUnixNano, long endUnixNano) throws InvalidRecordException {
      if (endUnixNano == 0) {
        throw invalid("data point without time_unix_nano");
      }
      IntervalMetrics m = byEnd.get(endUnixNano);
      if (m == null) {
        m = new IntervalMetrics();
        m.tenantId = tenantId;
        m.volumeId = volumeId;
        m.intervalEndUnixNano = endUnixNano;
        byEnd.put(endUnixNano, m);
      }
      if (startUnixNano != 0) {
        if (m.intervalStartUnixNano != 0 && m.intervalStartUnixNano != startUnixNano) {
          throw invalid("data points ending at " + endUnixNano + " ns disagree on the start ("
              + m.intervalStartUnixNano + " vs " + startUnixNano + ")");
        }
        m.intervalStartUnixNano = startUnixNano;
      }
      return m;
    }

    private InvalidRecordException invalid(String problem) {
      return new InvalidRecordException("volume " + volumeId + ", metric " + metric.getName() + ": " + problem);
    }
  }
}
