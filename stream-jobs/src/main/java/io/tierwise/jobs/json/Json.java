package io.tierwise.jobs.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tierwise.jobs.metrics.CpuTimes;
import io.tierwise.jobs.metrics.IoLengthBins;
import io.tierwise.jobs.metrics.LatencyHistograms;
import io.tierwise.jobs.metrics.SourceIo;
import io.tierwise.jobs.metrics.SparseCounts;
import io.tierwise.jobs.metrics.WorkloadHistograms;
import java.io.IOException;
import java.io.StringWriter;

/**
 * JSON for the json and jsonb columns (Jackson): a json column stores the text as written
 * (migration 880).
 */
public final class Json {
  /**
   * Doubles written by Jackson's Schubfach writer (R. Giulietti, "The Schubfach way to render
   * doubles", 2020): the shortest text that reads back as the same double, as Double.toString
   * gives from JDK 19, without JDK 17's slower FloatingDecimal.
   */
  private static final ObjectMapper MAPPER = JsonMapper.builder().enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER).build();

  private Json() {}

  /** A new empty JSON object. */
  public static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  /** A new empty JSON array. */
  public static ArrayNode array() {
    return MAPPER.createArrayNode();
  }

  /**
   * MRC points as stored in volume_mrcs.points: [{"cache_bytes": bytes, "miss_ratio": 0..1}, ...],
   * written straight to text (the curves are rewritten at every coarse write of every volume).
   *
   * @param cacheBytes sizes in bytes; @param missRatios ratios, same length
   */
  public static String mrcPoints(long[] cacheBytes, double[] missRatios) {
    return write(g -> points(g, cacheBytes, missRatios));
  }

  /**
   * Each eviction policy's curve as stored in volume_mrcs.eviction_points: {"<policy>": [{cache_bytes,
   * miss_ratio}, ...], ...}, the policies as the services spell them, on the sizes of points.
   */
  public static String evictionPoints(long[] cacheBytes, String[] evictions, double[][] missRatios) {
    return write(g -> {
      g.writeStartObject();
      for (int p = 0; p < evictions.length; p++) {
        g.writeFieldName(evictions[p]);
        points(g, cacheBytes, missRatios[p]);
      }
      g.writeEndObject();
    });
  }

  private static void points(JsonGenerator g, long[] cacheBytes, double[] missRatios) throws IOException {
    g.writeStartArray();
    for (int i = 0; i < cacheBytes.length; i++) {
      g.writeStartObject();
      g.writeNumberField("cache_bytes", cacheBytes[i]);
      g.writeNumberField("miss_ratio", missRatios[i]);
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  /**
   * Latency histograms as stored in metric_rollups.latency_us: {"read": {"<ioLength bin label>":
   * [{@value LatencyHistograms#BUCKETS} counts]}, "write": {...}}, only bins with counts.
   */
  public static String latency(LatencyHistograms h) {
    return write(g -> histograms(g, h, LATENCY_CELLS));
  }

  /**
   * Per-source I/O as stored in metric_rollups.sources: {"cache" | "peer" | "datastore": {"read" |
   * "write": {"ops": I/Os, "bytes": bytes, "latency_us": [{@value LatencyHistograms#BUCKETS} counts]}}},
   * only the (source, direction) pairs with counts.
   */
  public static String sources(SourceIo io) {
    return write(g -> {
      g.writeStartObject();
      for (int s = 0; s < SourceIo.SOURCES.length; s++) {
        boolean open = false;
        for (int direction = 0; direction < 2; direction++) {
          boolean write = direction == 1;
          int slot = SourceIo.slot(s, write);
          if (io.isEmpty(slot)) {
            continue;
          }
          if (!open) {
            g.writeObjectFieldStart(SourceIo.SOURCES[s]);
            open = true;
          }
          g.writeObjectFieldStart(write ? "write" : "read");
          g.writeNumberField("ops", io.ops[slot]);
          g.writeNumberField("bytes", io.bytes[slot]);
          g.writeArrayFieldStart("latency_us");
          for (int b = 0; b < LatencyHistograms.BUCKETS; b++) {
            g.writeNumber(io.latency[slot * LatencyHistograms.BUCKETS + b]);
          }
          g.writeEndArray();
          g.writeEndObject();
        }
        if (open) {
          g.writeEndObject();
        }
      }
      g.writeEndObject();
    });
  }

  /**
   * The workload histograms as stored in metric_rollups.workload: {"seek_distance" |
   * "seek_distance_closest" | "outstanding" | "interarrival_us" | "alignment": {"all" | "read" |
   * "write": [bucket counts over the family's bounds]}, "alignment_work": {"read" | "write":
   * [misaligned bytes, 4 KiB blocks as issued, 4 KiB blocks if aligned]}}, only those with counts.
   */
  public static String workload(WorkloadHistograms h) {
    return write(g -> histograms(g, h, WORKLOAD_CELLS));
  }

  /**
   * The CPU time as stored in metric_rollups.cpu (microseconds): {"host_us": {mode: µs for every
   * system.cpu.time mode}, "host_wall_us": µs, "consumer": {"process" | "cgroup": {"user_us",
   * "system_us", "wall_us"}}}, the host part only when measured, a consumer kind only when it
   * reported; {} when nothing was measured.
   */
  public static String cpu(CpuTimes cpu) {
    return write(g -> {
      g.writeStartObject();
      if (cpu.hostWallMicros > 0) {
        g.writeObjectFieldStart("host_us");
        for (int i = 0; i < CpuTimes.HOST_MODES.length; i++) {
          g.writeNumberField(CpuTimes.HOST_MODES[i], cpu.hostMicros[i]);
        }
        g.writeEndObject();
        g.writeNumberField("host_wall_us", cpu.hostWallMicros);
      }
      boolean consumer = false;
      for (int k = 0; k < CpuTimes.CONSUMER_KINDS.length; k++) {
        if (cpu.consumerWallMicros[k] > 0) {
          if (!consumer) {
            g.writeObjectFieldStart("consumer");
            consumer = true;
          }
          g.writeObjectFieldStart(CpuTimes.CONSUMER_KINDS[k]);
          for (int m = 0; m < CpuTimes.CONSUMER_MODES.length; m++) {
            g.writeNumberField(CpuTimes.CONSUMER_MODES[m] + "_us", cpu.consumerMicros[k * CpuTimes.CONSUMER_MODES.length + m]);
          }
          g.writeNumberField("wall_us", cpu.consumerWallMicros[k]);
          g.writeEndObject();
        }
      }
      if (consumer) {
        g.writeEndObject();
      }
      g.writeEndObject();
    });
  }

  /**
   * Front-end latency sums as stored in volume_metrics_10s.latency_us_sum: {"&lt;the bin's
   * upper bound in bytes&gt;" | "&gt;524288": microseconds}, the ioLength bins with I/Os only.
   *
   * @param sumsMicros latency sum per bin (index = bin), microseconds
   * @param ops I/Os per bin (index = bin)
   */
  public static String latencySumsPerBin(double[] sumsMicros, long[] ops) {
    return perBin(ops, (g, bin) -> g.writeNumber(sumsMicros[bin]));
  }

  /** I/Os as stored in volume_metrics_10s.latency_ops: the same keys, I/Os per bin (index = bin). */
  public static String opsPerBin(long[] ops) {
    return perBin(ops, (g, bin) -> g.writeNumber(ops[bin]));
  }

  /** A value written for one ioLength bin. */
  @FunctionalInterface
  private interface BinValue {
    void write(JsonGenerator g, int bin) throws IOException;
  }

  private static String perBin(long[] ops, BinValue value) {
    return write(g -> {
      g.writeStartObject();
      for (int bin = 0; bin < IoLengthBins.COUNT; bin++) {
        if (ops[bin] > 0) {
          g.writeFieldName(IoLengthBins.label(bin));
          value.write(g, bin);
        }
      }
      g.writeEndObject();
    });
  }

  /** Where the cells of a {@link SparseCounts} sit: histograms of consecutive cells, named by two keys. */
  private interface Layout {
    /** The first cell of the histogram holding {@code cell}. */
    int histogramOf(int cell);

    /** Buckets of the histogram whose first cell is {@code histogram}. */
    int buckets(int histogram);

    /** Its outer key. */
    String outer(int histogram);

    /** Its key within the outer object. */
    String inner(int histogram);
  }

  /** Where {@link LatencyHistograms}' cells sit: a histogram per direction and ioLength bin. */
  private static final Layout LATENCY_CELLS = new Layout() {
    @Override
    public int histogramOf(int cell) {
      return cell - cell % LatencyHistograms.BUCKETS;
    }

    @Override
    public int buckets(int histogram) {
      return LatencyHistograms.BUCKETS;
    }

    @Override
    public String outer(int histogram) {
      return histogram / LatencyHistograms.BUCKETS >= IoLengthBins.COUNT ? "write" : "read";
    }

    @Override
    public String inner(int histogram) {
      return IoLengthBins.label(histogram / LatencyHistograms.BUCKETS % IoLengthBins.COUNT);
    }
  };

  /** Where {@link WorkloadHistograms}' cells sit: a histogram per family and direction. */
  private static final Layout WORKLOAD_CELLS = new Layout() {
    @Override
    public int histogramOf(int cell) {
      WorkloadHistograms.Family family = WorkloadHistograms.Family.ofCell(cell);
      int offset = cell - family.firstCell;
      return cell - offset % family.buckets();
    }

    @Override
    public int buckets(int histogram) {
      return WorkloadHistograms.Family.ofCell(histogram).buckets();
    }

    @Override
    public String outer(int histogram) {
      return WorkloadHistograms.Family.ofCell(histogram).json;
    }

    @Override
    public String inner(int histogram) {
      WorkloadHistograms.Family family = WorkloadHistograms.Family.ofCell(histogram);
      return WorkloadHistograms.DIRECTIONS[(histogram - family.firstCell) / family.buckets()];
    }
  };

  /**
   * Writes sparse histograms as {outer: {inner: [every bucket's count]}}, only the histograms with
   * a cell; cells increase, so each histogram and each outer object is written in one piece.
   */
  private static void histograms(JsonGenerator g, SparseCounts h, Layout layout) throws IOException {
    g.writeStartObject();
    String outer = null;
    int histogram = -1;
    int next = 0;
    for (int i = 0; i < h.cells.length; i++) {
      int cell = h.cells[i];
      int of = layout.histogramOf(cell);
      if (of != histogram) {
        if (histogram >= 0) {
          endHistogram(g, next, layout.buckets(histogram));
        }
        String key = layout.outer(of);
        if (!key.equals(outer)) {
          if (outer != null) {
            g.writeEndObject();
          }
          g.writeObjectFieldStart(key);
          outer = key;
        }
        g.writeArrayFieldStart(layout.inner(of));
        histogram = of;
        next = 0;
      }
      for (; next < cell - histogram; next++) {
        g.writeNumber(0L);
      }
      g.writeNumber(h.counts[i]);
      next++;
    }
    if (histogram >= 0) {
      endHistogram(g, next, layout.buckets(histogram));
      g.writeEndObject();
    }
    g.writeEndObject();
  }

  /** Writes the zero counts of buckets {@code next} to {@code buckets} - 1 and ends the array. */
  private static void endHistogram(JsonGenerator g, int next, int buckets) throws IOException {
    for (int b = next; b < buckets; b++) {
      g.writeNumber(0L);
    }
    g.writeEndArray();
  }

  /** A document written straight to its text by {@link #write}. */
  @FunctionalInterface
  private interface Document {
    void writeTo(JsonGenerator g) throws IOException;
  }

  /**
   * The compact text of a document written with Jackson's streaming generator: no tree of nodes
   * for the documents written at every row (issue 17, docs/fleet-scale.md).
   */
  private static String write(Document document) {
    StringWriter text = new StringWriter(256);
    try (JsonGenerator g = MAPPER.createGenerator(text)) {
      document.writeTo(g);
    } catch (IOException e) {
      throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
    }
    return text.toString();
  }

  /** The compact JSON text of {@code node}. */
  public static String text(Object node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
    }
  }
}
