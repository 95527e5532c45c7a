package io.tierwise.jobs.testing;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.metrics.v1.Sum;
import io.opentelemetry.proto.resource.v1.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Builds OTLP requests shaped like the agent's (proto/METRICS.md): one ResourceMetrics per
 * volume, delta sums and histograms, front-end and per-source points, vscsiStats size bins.
 */
public final class AgentTelemetry {
  /** The ioLength bin upper bounds (METRICS.md). */
  public static final double[] IO_LENGTH_BOUNDS = {512, 1024, 2048, 4095, 4096, 8191, 8192, 16383, 16384,
      32768, 49152, 65535, 65536, 81920, 131072, 262144, 524288};

  /** One interval of one volume, as the agent counts it. Size arrays have 18 bins. */
  public static final class Interval {
    public long startUnixNano;
    public long endUnixNano;
    public long readOps;
    public long writeOps;
    public long readBytes;
    public long writeBytes;
    public long readHits;
    public long readMisses;
    public long writeHits;
    public long writeMisses;
    public long evictedBytes;
    public long occupancyBytes;
    public long capacityBytes;
    /** WB+n: write-back writes the peers hold (io.source=peer), their bytes and latency counts (bin 65536); 0/null: none. */
    public long peerWrites;
    public long peerWriteBytes;
    public long[] peerWriteLatency;
    /** The sum of the peer writes' latencies, microseconds (the point's sum). */
    public double peerWriteLatencySumMicros;
    public long[] readSizeOps = new long[18];
    public long[] writeSizeOps = new long[18];
    public long[] readSizeBytes = new long[18];
    public long[] writeSizeBytes = new long[18];
    /** Front-end latency bucket counts (20, METRICS.md bounds) per ioLength bin; null: no point. */
    public long[][] readLatency = new long[18][];
    /** Same for writes. */
    public long[][] writeLatency = new long[18][];

    /** An interval of {@code seconds} starting at {@code startUnixNano}. */
    public Interval(long startUnixNano, long seconds) {
      this.startUnixNano = startUnixNano;
      this.endUnixNano = startUnixNano + seconds * 1_000_000_000L;
    }
  }

  private AgentTelemetry() {}

  /** The latency bucket bounds, microseconds (METRICS.md). */
  public static final double[] LATENCY_BOUNDS_US = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000,
      20000, 50000, 100000, 200000, 500000, 1000000};

  /** The request for one volume with the given intervals. */
  public static ExportMetricsServiceRequest request(String hostId, String volumeId, Interval... intervals) {
    return request(null, hostId, volumeId, intervals);
  }

  /** The request for one volume of cluster {@code clusterId} (null: no cluster attribute). */
  public static ExportMetricsServiceRequest request(String clusterId, String hostId, String volumeId,
      Interval... intervals) {
    List<Metric> metrics = new ArrayList<>();
    metrics.add(sum("tierwise.io.operations", "{operation}", intervals, (i, pts) -> {
      pts.add(point(i, i.readOps, "io.direction", "read", "io.source", "frontend"));
      pts.add(point(i, i.writeOps, "io.direction", "write", "io.source", "frontend"));
      // Per-source points must not be counted as front-end I/Os.
      pts.add(point(i, i.readHits, "io.direction", "read", "io.source", "cache"));
      pts.add(point(i, i.readMisses, "io.direction", "read", "io.source", "datastore"));
      pts.add(point(i, i.writeOps, "io.direction", "write", "io.source", "datastore"));
      if (i.peerWrites > 0) {
        pts.add(point(i, i.peerWrites, "io.direction", "write", "io.source", "peer"));
      }
    }));
    metrics.add(sum("tierwise.io.bytes", "By", intervals, (i, pts) -> {
      pts.add(point(i, i.readBytes, "io.direction", "read", "io.source", "frontend"));
      pts.add(point(i, i.writeBytes, "io.direction", "write", "io.source", "frontend"));
      pts.add(point(i, i.writeBytes, "io.direction", "write", "io.source", "datastore"));
      pts.add(point(i, i.readHits * 4096, "io.direction", "read", "io.source", "cache"));
      if (i.peerWrites > 0) {
        pts.add(point(i, i.peerWriteBytes, "io.direction", "write", "io.source", "peer"));
      }
    }));
    metrics.add(sum("tierwise.cache.hits", "{block}", intervals, (i, pts) -> {
      pts.add(point(i, i.readHits, "io.direction", "read"));
      pts.add(point(i, i.writeHits, "io.direction", "write"));
    }));
    metrics.add(sum("tierwise.cache.misses", "{block}", intervals, (i, pts) -> {
      pts.add(point(i, i.readMisses, "io.direction", "read"));
      pts.add(point(i, i.writeMisses, "io.direction", "write"));
    }));
    metrics.add(sum("tierwise.cache.evictions", "By", intervals, (i, pts) -> pts.add(point(i, i.evictedBytes))));
    metrics.add(sum("tierwise.io.size.bytes", "By", intervals, (i, pts) -> {
      for (int b = 0; b < 18; b++) {
        String label = b < 17 ? Long.toString((long) IO_LENGTH_BOUNDS[b]) : ">524288";
        if (i.readSizeBytes[b] != 0) {
          pts.add(point(i, i.readSizeBytes[b], "io.direction", "read", "tierwise.io.size_bin", label));
        }
        if (i.writeSizeBytes[b] != 0) {
          pts.add(point(i, i.writeSizeBytes[b], "io.direction", "write", "tierwise.io.size_bin", label));
        }
      }
    }));
    Histogram.Builder sizes = Histogram.newBuilder()
        .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA);
    for (Interval i : intervals) {
      sizes.addDataPoints(sizePoint(i, "read", i.readSizeOps, i.readBytes));
      sizes.addDataPoints(sizePoint(i, "write", i.writeSizeOps, i.writeBytes));
    }
    metrics.add(Metric.newBuilder().setName("tierwise.io.size").setUnit("By").setHistogram(sizes).build());
    Histogram.Builder latency = Histogram.newBuilder()
        .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA);
    for (Interval i : intervals) {
      for (int b = 0; b < 18; b++) {
        String label = b < 17 ? Long.toString((long) IO_LENGTH_BOUNDS[b]) : ">524288";
        if (i.readLatency[b] != null) {
          latency.addDataPoints(latencyPoint(i, "read", "frontend", label, i.readLatency[b]));
          // A per-source point must not be counted as VM-observed latency.
          latency.addDataPoints(latencyPoint(i, "read", "cache", label, i.readLatency[b]));
        }
        if (i.writeLatency[b] != null) {
          latency.addDataPoints(latencyPoint(i, "write", "frontend", label, i.writeLatency[b]));
        }
      }
      if (i.peerWriteLatency != null) {
        latency.addDataPoints(latencyPoint(i, "write", "peer", "65536", i.peerWriteLatency).toBuilder()
            .setSum(i.peerWriteLatencySumMicros).build());
      }
    }
    metrics.add(Metric.newBuilder().setName("tierwise.io.latency").setUnit("us").setHistogram(latency).build());
    Gauge.Builder occupancy = Gauge.newBuilder();
    Gauge.Builder capacity = Gauge.newBuilder();
    for (Interval i : intervals) {
      // Gauges carry only the interval end, as OTLP allows.
      occupancy.addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(i.endUnixNano).setAsInt(i.occupancyBytes));
      capacity.addDataPoints(NumberDataPoint.newBuilder().setTimeUnixNano(i.endUnixNano).setAsInt(i.capacityBytes));
    }
    metrics.add(Metric.newBuilder().setName("tierwise.cache.occupancy").setUnit("By").setGauge(occupancy).build());
    metrics.add(Metric.newBuilder().setName("tierwise.cache.capacity").setUnit("By").setGauge(capacity).build());
    // A metric the jobs do not store yet must be ignored.
    metrics.add(Metric.newBuilder().setName("tierwise.cache.dirty").setUnit("By")
        .setGauge(Gauge.newBuilder().addDataPoints(NumberDataPoint.newBuilder()
            .setTimeUnixNano(intervals[0].endUnixNano).setAsInt(4096))).build());

    Resource.Builder resource = Resource.newBuilder()
        .addAttributes(attr("service.name", "tierwise-agent"))
        .addAttributes(attr("host.id", hostId))
        .addAttributes(attr("tierwise.volume.id", volumeId))
        .addAttributes(attr("tierwise.cache.mode", "write-through"));
    if (clusterId != null) {
      resource.addAttributes(attr("tierwise.cluster.id", clusterId));
    }
    return ExportMetricsServiceRequest.newBuilder()
        .addResourceMetrics(ResourceMetrics.newBuilder().setResource(resource)
            .addScopeMetrics(ScopeMetrics.newBuilder()
                .setScope(InstrumentationScope.newBuilder().setName("tierwise.agent"))
                .addAllMetrics(metrics)))
        .build();
  }

  private interface Points {
    void add(Interval i, List<NumberDataPoint> points);
  }

  private static Metric sum(String name, String unit, Interval[] intervals, Points points) {
    List<NumberDataPoint> pts = new ArrayList<>();
    for (Interval i : intervals) {
      points.add(i, pts);
    }
    return Metric.newBuilder().setName(name).setUnit(unit).setSum(Sum.newBuilder()
        .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA)
        .setIsMonotonic(true).addAllDataPoints(pts)).build();
  }

  private static NumberDataPoint point(Interval i, long value, String... attributes) {
    NumberDataPoint.Builder p = NumberDataPoint.newBuilder()
        .setStartTimeUnixNano(i.startUnixNano).setTimeUnixNano(i.endUnixNano).setAsInt(value);
    for (int a = 0; a < attributes.length; a += 2) {
      p.addAttributes(attr(attributes[a], attributes[a + 1]));
    }
    return p.build();
  }

  private static HistogramDataPoint latencyPoint(Interval i, String direction, String source, String sizeBin,
      long[] counts) {
    return histogramPoint(i, LATENCY_BOUNDS_US, counts).addAttributes(attr("io.direction", direction))
        .addAttributes(attr("io.source", source)).addAttributes(attr("tierwise.io.size_bin", sizeBin)).build();
  }

  private static HistogramDataPoint sizePoint(Interval i, String direction, long[] counts, long bytes) {
    return histogramPoint(i, IO_LENGTH_BOUNDS, counts).addAttributes(attr("io.direction", direction)).setSum(bytes)
        .build();
  }

  /** A delta histogram point of the interval with these explicit bounds and bucket counts. */
  private static HistogramDataPoint.Builder histogramPoint(Interval i, double[] bounds, long[] counts) {
    HistogramDataPoint.Builder p = HistogramDataPoint.newBuilder()
        .setStartTimeUnixNano(i.startUnixNano).setTimeUnixNano(i.endUnixNano);
    long count = 0;
    for (double bound : bounds) {
      p.addExplicitBounds(bound);
    }
    for (long c : counts) {
      p.addBucketCounts(c);
      count += c;
    }
    return p.setCount(count);
  }

  /**
   * A busy interval from {@code r}: 100..999 reads spread over the ioLength bins 4, 6 and 8 (4096, 8192,
   * 16384) with latencies in one of the buckets 5..9 (20 µs .. 1 ms), up to 299 writes of 64 KiB
   * (bin 12) in buckets 8..11, a 1 GiB tier half full.
   */
  public static Interval busyInterval(long startUnixNano, Random r) {
    Interval i = new Interval(startUnixNano, 10);
    i.readOps = 100 + r.nextInt(900);
    i.writeOps = r.nextInt(300);
    i.readBytes = i.readOps * 4096;
    i.writeBytes = i.writeOps * 65536;
    i.readHits = r.nextInt((int) i.readOps);
    i.readMisses = i.readOps - i.readHits;
    i.writeMisses = i.writeOps;
    for (int bin : new int[] {4, 6, 8}) {
      i.readSizeOps[bin] = i.readOps / 3;
      i.readSizeBytes[bin] = i.readOps / 3 * 4096;
      i.readLatency[bin] = new long[20];
      i.readLatency[bin][5 + r.nextInt(5)] = i.readOps / 3;
    }
    i.writeSizeOps[12] = i.writeOps;
    i.writeSizeBytes[12] = i.writeBytes;
    i.writeLatency[12] = new long[20];
    i.writeLatency[12][8 + r.nextInt(4)] = i.writeOps;
    i.capacityBytes = 1L << 30;
    i.occupancyBytes = 1L << 29;
    return i;
  }

  /** A string attribute. */
  public static KeyValue attr(String key, String value) {
    return KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setStringValue(value)).build();
  }
}
