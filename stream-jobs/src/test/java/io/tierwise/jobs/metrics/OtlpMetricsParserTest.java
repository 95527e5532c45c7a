package io.tierwise.jobs.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.Gauge;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.Sum;
import io.tierwise.jobs.json.Json;
import io.tierwise.jobs.testing.AgentTelemetry;
import io.tierwise.jobs.ingest.InvalidRecordException;
import io.tierwise.proto.v1.IngestRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class OtlpMetricsParserTest {
  private static final String TENANT = "3f2a0c1e-8a4b-4c1d-9e2f-0123456789ab";
  private static final long T0 = 1_700_000_000_000_000_000L;

  static AgentTelemetry.Interval interval(long start, long readOps) {
    AgentTelemetry.Interval i = new AgentTelemetry.Interval(start, 10);
    i.readOps = readOps;
    i.writeOps = 5;
    i.readBytes = readOps * 4096;
    i.writeBytes = 5 * 65536;
    i.readHits = 30;
    i.readMisses = 10;
    i.writeHits = 4;
    i.writeMisses = 76;
    i.evictedBytes = 8192;
    i.occupancyBytes = 1 << 20;
    i.capacityBytes = 1 << 30;
    i.readSizeOps[4] = readOps;
    i.readSizeBytes[4] = readOps * 4096;
    i.writeSizeOps[12] = 5;
    i.writeSizeBytes[12] = 5 * 65536;
    return i;
  }

  private static List<IntervalMetrics> parse(ExportMetricsServiceRequest request) throws Exception {
    return new OtlpMetricsParser().parse(
        IngestRecord.newBuilder().setTenantId(TENANT).setPayload(request.toByteString()).build());
  }

  @Test
  void anIntervalIsKnownByItsBatchIdAndEndSoAResendIsTheSame() throws Exception {
    ExportMetricsServiceRequest request = AgentTelemetry.request("h1", "vol-a", interval(T0, 40), interval(T0 + 10_000_000_000L, 7));
    java.util.function.Function<String, List<Long>> ids = batch -> {
      try {
        return new OtlpMetricsParser().parse(IngestRecord.newBuilder().setTenantId(TENANT).setBatchId(batch)
            .setPayload(request.toByteString()).build()).stream().map(m -> m.recordId).toList();
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    };
    List<Long> sent = ids.apply("7d6b1c1e-0b8e-4a5e-9d55-5f2f6f0c9a11#0");
    assertThat(sent).doesNotHaveDuplicates().hasSize(2);
    assertThat(ids.apply("7d6b1c1e-0b8e-4a5e-9d55-5f2f6f0c9a11#0")).as("resent").isEqualTo(sent);
    assertThat(ids.apply("7d6b1c1e-0b8e-4a5e-9d55-5f2f6f0c9a11#1")).as("another record").doesNotContainAnyElementsOf(sent);
  }

  @Test
  void readsFrontEndCountersCacheCountersGaugesAndSizeBinsPerInterval() throws Exception {
    List<IntervalMetrics> out = parse(AgentTelemetry.request("h1", "vol-a",
        interval(T0, 40), interval(T0 + 10_000_000_000L, 7)));
    assertThat(out).hasSize(2);
    IntervalMetrics first = out.get(0);
    assertThat(first.tenantId).isEqualTo(TENANT);
    assertThat(first.volumeId).isEqualTo("vol-a");
    assertThat(first.intervalStartUnixNano).isEqualTo(T0);
    assertThat(first.intervalSeconds()).isEqualTo(10.0);
    assertThat(first.io.readOps).isEqualTo(40);
    assertThat(first.io.writeOps).as("frontend only, not datastore").isEqualTo(5);
    assertThat(first.io.readBytes).isEqualTo(40 * 4096);
    assertThat(first.io.writeBytes).isEqualTo(5 * 65536);
    assertThat(first.io.cacheHits).isEqualTo(34);
    assertThat(first.io.cacheMisses).isEqualTo(86);
    assertThat(first.io.readCacheHits).isEqualTo(30);
    assertThat(first.io.readCacheMisses).isEqualTo(10);
    assertThat(first.io.evictedBytes).isEqualTo(8192);
    assertThat(first.occupancyBytes).isEqualTo(1 << 20);
    assertThat(first.capacityBytes).isEqualTo(1 << 30);
    assertThat(first.blockSizes.readOps[4]).as("bin 4096").isEqualTo(40);
    assertThat(first.blockSizes.readBytes[4]).isEqualTo(40 * 4096);
    assertThat(first.blockSizes.writeOps[12]).as("bin 65536").isEqualTo(5);
    assertThat(first.blockSizes.writeBytes[12]).isEqualTo(5 * 65536);
    assertThat(out.get(1).io.readOps).isEqualTo(7);
  }

  @Test
  void readsFrontEndLatencyHistogramsPerSizeBinAndTheHostAndCluster() throws Exception {
    AgentTelemetry.Interval i = interval(T0, 40);
    i.readLatency[4] = buckets(7, 30, 3);
    i.writeLatency[12] = buckets(9, 5, 0);
    IntervalMetrics m = parse(AgentTelemetry.request("cl-1", "h1", "vol-a", i)).get(0);
    assertThat(m.hostId).isEqualTo("h1");
    assertThat(m.clusterId).isEqualTo("cl-1");
    assertThat(m.latency.cells).as("front-end points only; the cache-source point goes to the sources").containsExactly(
        LatencyHistograms.cell(false, 4, 7), LatencyHistograms.cell(false, 4, 8),
        LatencyHistograms.cell(true, 12, 9));
    assertThat(m.latency.counts).containsExactly(30, 3, 5);
    assertThat(parse(AgentTelemetry.request("h1", "vol-a", i)).get(0).clusterId).isNull();

    ExportMetricsServiceRequest good = AgentTelemetry.request("h1", "vol-a", i);
    assertThatThrownBy(() -> parse(withMetric(good, "tierwise.io.latency", h -> h.toBuilder()
        .setHistogram(h.getHistogram().toBuilder().setDataPoints(0,
            h.getHistogram().getDataPoints(0).toBuilder().setExplicitBounds(0, 1.5))).build())))
        .hasMessageContaining("tierwise.io.latency").hasMessageContaining("are not the latency bounds");
  }

  @Test
  void readsTheIosBytesAndLatencyOfEverySourceApartFromTheFrontEnd() throws Exception {
    AgentTelemetry.Interval i = interval(T0, 40);
    i.readLatency[4] = buckets(7, 30, 3);
    i.peerWrites = 5;
    i.peerWriteBytes = 5 * 65536;
    i.peerWriteLatency = buckets(10, 4, 1);
    i.peerWriteLatencySumMicros = 5 * 1500.0;
    IntervalMetrics parsed = parse(AgentTelemetry.request("h1", "vol-a", i)).get(0);
    SourceIo sources = parsed.sources;
    int cacheRead = SourceIo.slot(SourceIo.sourceIndex("cache"), false);
    int peerWrite = SourceIo.slot(SourceIo.sourceIndex("peer"), true);
    int datastoreRead = SourceIo.slot(SourceIo.sourceIndex("datastore"), false);
    int datastoreWrite = SourceIo.slot(SourceIo.sourceIndex("datastore"), true);
    assertThat(sources.ops[cacheRead]).isEqualTo(30);
    assertThat(sources.bytes[cacheRead]).isEqualTo(30 * 4096);
    assertThat(sources.latencyOf(cacheRead)).as("the cache point of bin 4096").isEqualTo(buckets(7, 30, 3));
    assertThat(sources.ops[datastoreRead]).isEqualTo(10);
    assertThat(sources.ops[datastoreWrite]).isEqualTo(5);
    assertThat(sources.bytes[datastoreWrite]).isEqualTo(5 * 65536);
    assertThat(sources.ops[peerWrite]).isEqualTo(5);
    assertThat(sources.bytes[peerWrite]).isEqualTo(5 * 65536);
    assertThat(sources.latencyOf(peerWrite)).isEqualTo(buckets(10, 4, 1));
    assertThat(sources.isEmpty(SourceIo.slot(SourceIo.sourceIndex("peer"), false))).isTrue();
    // Per ioLength bin with the points' sums, for the recommendations; the tier's (cache) not kept.
    int bin65536 = IoLengthBins.indexOf("65536");
    assertThat(parsed.measuredLatency.ops(MeasuredLatency.PEER_WRITE, bin65536)).isEqualTo(5);
    assertThat(parsed.measuredLatency.meanMicros(MeasuredLatency.PEER_WRITE, bin65536)).isEqualTo(1500.0);
    assertThat(parsed.measuredLatency.ops(MeasuredLatency.DATASTORE_READ, 4)).isZero();
    assertThat(parsed.measuredLatency.meanMicros(MeasuredLatency.DATASTORE_READ, 4)).isNaN();

    assertThatThrownBy(() -> parse(withMetric(AgentTelemetry.request("h1", "vol-a", i), "tierwise.io.bytes", m -> m.toBuilder()
        .setSum(m.getSum().toBuilder().setDataPoints(0, m.getSum().getDataPoints(0).toBuilder()
            .setAttributes(1, AgentTelemetry.attr("io.source", "nvme")))).build())))
        .hasMessageContaining("tierwise.io.bytes").hasMessageContaining("io.source 'nvme' is not frontend, cache, peer or datastore");
  }

  @Test
  void readsTheCacheHealthSignals() throws Exception {
    AgentTelemetry.Interval i = interval(T0, 40);
    i.readLatency[4] = buckets(7, 30, 3);
    i.writeLatency[4] = buckets(9, 5, 0);
    ExportMetricsServiceRequest.Builder b = withMetric(AgentTelemetry.request("h1", "vol-a", i), "tierwise.io.latency",
        h -> {
          var hist = h.getHistogram().toBuilder();
          for (int p = 0; p < hist.getDataPointsCount(); p++) {
            hist.setDataPoints(p, hist.getDataPoints(p).toBuilder().setSum(1000.0 * (p + 1)));
          }
          return h.toBuilder().setHistogram(hist).build();
        }).toBuilder();
    setMode(b, "write-back");
    var scope = b.getResourceMetricsBuilder(0).getScopeMetricsBuilder(0);
    var point = io.opentelemetry.proto.metrics.v1.NumberDataPoint.newBuilder()
        .setStartTimeUnixNano(T0).setTimeUnixNano(T0 + 10_000_000_000L);
    scope.addMetrics(Metric.newBuilder().setName("tierwise.cache.dirty").setGauge(
        io.opentelemetry.proto.metrics.v1.Gauge.newBuilder().addDataPoints(point.setAsInt(65536))));
    scope.addMetrics(Metric.newBuilder().setName("tierwise.replication.peers").setGauge(
        io.opentelemetry.proto.metrics.v1.Gauge.newBuilder().addDataPoints(point.setAsInt(0))));
    for (String errors : List.of("tierwise.cache.fallbacks", "tierwise.cache.destage.errors", "tierwise.cache.tier.errors")) {
      long count = errors.contains("destage") ? 3 : 1;
      scope.addMetrics(Metric.newBuilder().setName(errors).setSum(
          io.opentelemetry.proto.metrics.v1.Sum.newBuilder().setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA)
              .addDataPoints(point.setAsInt(count))));
    }

    CacheHealth h = parse(b.build()).get(0).health;

    assertThat(h.mode).isEqualTo("write-back");
    assertThat(h.dirtyBytes).isEqualTo(65536);
    assertThat(h.healthyPeers).isZero();
    assertThat(h.fallbacks).isEqualTo(1);
    assertThat(h.destageErrors).isEqualTo(3);
    assertThat(h.tierErrors).isEqualTo(1);
    CacheHealth quiet = parse(AgentTelemetry.request("h1", "vol-a", i)).get(0).health;
    assertThat(quiet.destageErrors).as("no error metrics: no errors").isZero();
    assertThat(quiet.tierErrors).isZero();
    assertThat(h.latencyOps[4]).as("front-end reads and writes of the 4 KiB bin").isEqualTo(30 + 3 + 5);
    assertThat(h.latencySumMicros[4]).isPositive();
    assertThatThrownBy(() -> {
      ExportMetricsServiceRequest.Builder bad = AgentTelemetry.request("h1", "vol-a", i).toBuilder();
      setMode(bad, "write-around");
      parse(bad.build());
    }).hasMessageContaining("tierwise.cache.mode 'write-around' is not write-through or write-back");
  }

  /** Sets (or adds) the resource attribute tierwise.cache.mode. */
  private static void setMode(ExportMetricsServiceRequest.Builder b, String mode) {
    var resource = b.getResourceMetricsBuilder(0).getResourceBuilder();
    for (int a = 0; a < resource.getAttributesCount(); a++) {
      if (resource.getAttributes(a).getKey().equals("tierwise.cache.mode")) {
        resource.setAttributes(a, AgentTelemetry.attr("tierwise.cache.mode", mode));
        return;
      }
    }
    resource.addAttributes(AgentTelemetry.attr("tierwise.cache.mode", mode));
  }

  /** 20 latency bucket counts: {@code first} at bucket {@code bucket}, {@code next} at the one after. */
  private static long[] buckets(int bucket, long first, long next) {
    long[] b = new long[LatencyHistograms.BUCKETS];
    b[bucket] = first;
    b[bucket + 1] = next;
    return b;
  }

  @Test
  void rejectsContractViolationsNamingTheProblem() {
    ExportMetricsServiceRequest good = AgentTelemetry.request("h1", "vol-a", interval(T0, 1));
    assertThatThrownBy(() -> parse(AgentTelemetry.request("h1", "", interval(T0, 1))))
        .hasMessageContaining("tierwise.volume.id is missing");
    assertThatThrownBy(() -> parse(withMetric(good, "tierwise.io.operations", m -> m.toBuilder()
        .setSum(m.getSum().toBuilder()
            .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE)).build())))
        .hasMessageContaining("tierwise.io.operations").hasMessageContaining("is not delta");
    assertThatThrownBy(() -> parse(withMetric(good, "tierwise.cache.hits", m -> m.toBuilder()
        .setSum(m.getSum().toBuilder().setDataPoints(0, m.getSum().getDataPoints(0).toBuilder()
            .setAttributes(0, AgentTelemetry.attr("io.direction", "sideways")))).build())))
        .hasMessageContaining("io.direction 'sideways' is not read or write");
    assertThatThrownBy(() -> parse(withMetric(good, "tierwise.io.size", m -> m.toBuilder()
        .setHistogram(m.getHistogram().toBuilder().setDataPoints(0,
            m.getHistogram().getDataPoints(0).toBuilder().setExplicitBounds(3, 4096.0))).build())))
        .hasMessageContaining("are not the vscsiStats ioLength bins");
    assertThatThrownBy(() -> parse(withMetric(good, "tierwise.io.size.bytes", m -> m.toBuilder()
        .setSum(m.getSum().toBuilder().setDataPoints(0, m.getSum().getDataPoints(0).toBuilder()
            .setAttributes(1, AgentTelemetry.attr("tierwise.io.size_bin", "4k")))).build())))
        .hasMessageContaining("tierwise.io.size_bin '4k'");
  }

  private static ExportMetricsServiceRequest withMetric(ExportMetricsServiceRequest r, String name,
      UnaryOperator<Metric> change) {
    ExportMetricsServiceRequest.Builder b = r.toBuilder();
    var scope = b.getResourceMetricsBuilder(0).getScopeMetricsBuilder(0);
    for (int i = 0; i < scope.getMetricsCount(); i++) {
      if (scope.getMetrics(i).getName().equals(name)) {
        scope.setMetrics(i, change.apply(scope.getMetrics(i)));
      }
    }
    return b.build();
  }

  /** The agent's request for vol-a at interval T0 with {@code metrics} added to its scope. */
  private static ExportMetricsServiceRequest withMetrics(Metric... metrics) {
    ExportMetricsServiceRequest base = AgentTelemetry.request("h1", "vol-a", interval(T0, 40));
    ExportMetricsServiceRequest.Builder b = base.toBuilder();
    b.getResourceMetricsBuilder(0).getScopeMetricsBuilder(0).addAllMetrics(List.of(metrics));
    return b.build();
  }

  /** One delta histogram point of {@code family} at interval T0: {@code count} in bucket {@code bucket}. */
  private static Metric workload(WorkloadHistograms.Family family, String direction, int bucket, long count) {
    HistogramDataPoint.Builder p = HistogramDataPoint.newBuilder()
        .setStartTimeUnixNano(T0).setTimeUnixNano(T0 + 10_000_000_000L).setCount(count)
        .addAttributes(AgentTelemetry.attr("io.direction", direction));
    for (long bound : family.bounds) {
      p.addExplicitBounds(bound);
    }
    for (int b = 0; b < family.buckets(); b++) {
      p.addBucketCounts(b == bucket ? count : 0);
    }
    return Metric.newBuilder().setName(family.metric).setHistogram(Histogram.newBuilder()
        .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA).addDataPoints(p)).build();
  }

  @Test
  void readsTheVscsiStatsWorkloadHistogramsAndWritesThemAsTheRollupsJson() throws Exception {
    ExportMetricsServiceRequest request = withMetrics(
        workload(WorkloadHistograms.Family.SEEK_DISTANCE, "all", 17, 213),
        workload(WorkloadHistograms.Family.SEEK_DISTANCE, "read", 10, 4),
        workload(WorkloadHistograms.Family.SEEK_DISTANCE_CLOSEST, "all", 16, 5),
        workload(WorkloadHistograms.Family.OUTSTANDING, "write", 0, 547),
        workload(WorkloadHistograms.Family.INTERARRIVAL, "all", 1, 163));
    IntervalMetrics m = parse(request).get(0);
    RollupCell cell = new RollupCell();
    cell.add(m);
    cell.add(m);
    String json = Json.workload(cell.workload);
    assertThat(json).contains("\"seek_distance\":{\"all\":[" + "0,".repeat(17) + "426,")
        .contains("\"read\":[" + "0,".repeat(10) + "8,")
        .contains("\"seek_distance_closest\":{\"all\":[" + "0,".repeat(16) + "10,")
        .contains("\"outstanding\":{\"write\":[1094," + "0,".repeat(11) + "0]}")
        .contains("\"interarrival_us\":{\"all\":[0,326," + "0,".repeat(8) + "0]}");
  }

  /**
   * The wire rules ingest's validation follows when it reads the bytes in place (services/ingest
   * metrics-wire.spec.ts): protobuf-java refuses a string that is not UTF-8 and a field that runs
   * past the end of its message, and merges a data member repeated on the wire (the last set wins).
   */
  @Test
  void refusesBytesProtobufJavaCannotParseAndMergesARepeatedDataMember() throws Exception {
    ByteString volume = withMetrics().getResourceMetrics(0).toByteString();
    Metric hits = sum("tierwise.cache.hits", 5, "io.direction", "read");

    byte[] described = hits.toBuilder().setDescription("\u00ff\u00ff").build().toByteArray();
    byte[] marker = "\u00ff\u00ff".getBytes(StandardCharsets.UTF_8);
    int at = new String(described, StandardCharsets.ISO_8859_1).indexOf(new String(marker, StandardCharsets.ISO_8859_1));
    System.arraycopy(new byte[] {(byte) 0xff, (byte) 0xfe, (byte) 0xfd, (byte) 0xfc}, 0, described, at, marker.length);
    assertThatThrownBy(() -> parsePayload(volume.concat(field(2, field(2, ByteString.copyFrom(described))))))
        .isInstanceOf(InvalidRecordException.class).hasMessageContaining("invalid UTF-8");

    byte[] name = Metric.newBuilder().setName("abc").build().toByteArray();
    ByteString shortMetric = ByteString.copyFrom(new byte[] {(2 << 3) | 2, (byte) (name.length - 2)}).concat(ByteString.copyFrom(name));
    assertThatThrownBy(() -> parsePayload(volume.concat(field(2, shortMetric))))
        .isInstanceOf(InvalidRecordException.class).hasMessageContaining("payload is not an OTLP ExportMetricsServiceRequest");

    byte[] gauge = Metric.newBuilder().setName("tierwise.cache.hits")
        .setGauge(Gauge.newBuilder().addDataPoints(hits.getSum().getDataPoints(0))).build().toByteArray();
    byte[] gaugeThenSum = ByteString.copyFrom(gauge).concat(hits.toBuilder().clearName().build().toByteString()).toByteArray();
    assertThat(Metric.parseFrom(gaugeThenSum).hasSum()).isTrue();
    assertThat(parsePayload(volume.concat(field(2, field(2, ByteString.copyFrom(gaugeThenSum)))))).hasSize(1);
  }

  /** Field {@code number} of a message, length-delimited, holding {@code bytes}. */
  private static ByteString field(int number, ByteString bytes) throws IOException {
    ByteString.Output out = ByteString.newOutput();
    CodedOutputStream coded = CodedOutputStream.newInstance(out);
    coded.writeBytes(number, bytes);
    coded.flush();
    return out.toByteString();
  }

  /** Parses a request holding the one ResourceMetrics {@code resourceMetrics}. */
  private static List<IntervalMetrics> parsePayload(ByteString resourceMetrics) throws Exception {
    return new OtlpMetricsParser().parse(IngestRecord.newBuilder().setTenantId(TENANT)
        .setPayload(field(1, resourceMetrics)).build());
  }

  /** One delta sum point at interval T0 with {@code attributes} (key, value, key, value...). */
  private static Metric sum(String name, long value, String... attributes) {
    NumberDataPoint.Builder p = NumberDataPoint.newBuilder()
        .setStartTimeUnixNano(T0).setTimeUnixNano(T0 + 10_000_000_000L).setAsInt(value);
    for (int i = 0; i < attributes.length; i += 2) {
      p.addAttributes(AgentTelemetry.attr(attributes[i], attributes[i + 1]));
    }
    return Metric.newBuilder().setName(name).setSum(Sum.newBuilder().setIsMonotonic(true)
        .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_DELTA).addDataPoints(p)).build();
  }

  @Test
  void readsTheBlockAlignmentIntoTheWorkloadJson() throws Exception {
    ExportMetricsServiceRequest request = withMetrics(
        workload(WorkloadHistograms.Family.ALIGNMENT, "all", 1, 30),
        sum("tierwise.io.alignment.misaligned_bytes", 122880, "io.direction", "write"),
        sum("tierwise.io.alignment.blocks", 60, "io.direction", "write", "tierwise.io.alignment.layout", "issued"),
        sum("tierwise.io.alignment.blocks", 30, "io.direction", "write", "tierwise.io.alignment.layout", "aligned"));
    RollupCell cell = new RollupCell();
    cell.add(parse(request).get(0));
    cell.add(parse(request).get(0));
    String json = Json.workload(cell.workload);
    assertThat(json).contains("\"alignment\":{\"all\":[0,60,0,0,0,0,0,0]}")
        .contains("\"alignment_work\":{\"write\":[245760,120,60]}");
  }

  @Test
  void refusesAlignmentBlocksOfAnUnknownLayout() {
    ExportMetricsServiceRequest request = withMetrics(sum("tierwise.io.alignment.blocks", 6, "io.direction", "read", "tierwise.io.alignment.layout", "x"));
    assertThatThrownBy(() -> parse(request)).hasMessageContaining("tierwise.io.alignment.layout 'x'");
  }

  @Test
  void refusesAWorkloadHistogramOfADirectionItsFamilyDoesNotHave() {
    ExportMetricsServiceRequest request = withMetrics(workload(WorkloadHistograms.Family.SEEK_DISTANCE_CLOSEST, "write", 16, 5));
    assertThatThrownBy(() -> parse(request)).hasMessageContaining("io.direction 'write' is not all");
  }

  /** One delta sum point of seconds (a double) at interval T0 with {@code attributes}. */
  private static Metric seconds(String name, double value, String... attributes) {
    Metric m = sum(name, 0, attributes);
    Metric.Builder b = m.toBuilder();
    b.getSumBuilder().getDataPointsBuilder(0).setAsDouble(value);
    return b.build();
  }

  @Test
  void readsTheHostAndConsumerCpuTimeAndWritesItAsTheRollupsJson() throws Exception {
    ExportMetricsServiceRequest request = withMetrics(
        seconds("system.cpu.time", 6.25, "cpu.mode", "user"),
        seconds("system.cpu.time", 1.5, "cpu.mode", "system"),
        seconds("system.cpu.time", 11.0, "cpu.mode", "idle"),
        seconds("system.cpu.time", 1.25, "cpu.mode", "iowait"),
        seconds("tierwise.consumer.cpu.time", 2.000001, "cpu.mode", "user", "tierwise.consumer.kind", "process"),
        seconds("tierwise.consumer.cpu.time", 0.5, "cpu.mode", "system", "tierwise.consumer.kind", "process"));
    RollupCell cell = new RollupCell();
    cell.add(parse(request).get(0));
    cell.add(parse(request).get(0));
    assertThat(Json.cpu(cell.cpu)).isEqualTo("{\"host_us\":{\"user\":12500000,\"nice\":0,\"system\":3000000,"
        + "\"idle\":22000000,\"iowait\":2500000,\"interrupt\":0,\"steal\":0},\"host_wall_us\":20000000,"
        + "\"consumer\":{\"process\":{\"user_us\":4000002,\"system_us\":1000000,\"wall_us\":20000000}}}");
    assertThat(Json.cpu(parse(withMetrics()).get(0).cpu)).isEqualTo("{}");
  }

  @Test
  void refusesCpuTimeOfAnUnknownModeOrConsumerOrANegativeOne() {
    assertThatThrownBy(() -> parse(withMetrics(seconds("system.cpu.time", 1, "cpu.mode", "busy"))))
        .hasMessageContaining("cpu.mode 'busy'");
    assertThatThrownBy(() -> parse(withMetrics(seconds("system.cpu.time", -0.25, "cpu.mode", "user"))))
        .hasMessageContaining("negative value");
    assertThatThrownBy(() -> parse(withMetrics(seconds("tierwise.consumer.cpu.time", 1, "cpu.mode", "user", "tierwise.consumer.kind", "vm"))))
        .hasMessageContaining("tierwise.consumer.kind 'vm'");
  }
}
