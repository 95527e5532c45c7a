package io.tierwise.jobs.json;

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
import io.tierwise.jobs.metrics.WorkloadHistograms;

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
   * MRC points as stored in volume_mrcs.points: [{"cache_bytes": bytes, "miss_ratio": 0..1}, ...].
   *
   * @param cacheBytes sizes in bytes; @param missRatios ratios, same length
   */
  public static ArrayNode mrcPoints(long[] cacheBytes, double[] missRatios) {
    ArrayNode points = MAPPER.createArrayNode();
    for (int i = 0; i < cacheBytes.length; i++) {
      points.addObject().put("cache_bytes", cacheBytes[i]).put("miss_ratio", missRatios[i]);
    }
    return points;
  }

  /**
   * Each eviction policy's curve as stored in volume_mrcs.eviction_points: {"<policy>": [{cache_bytes,
   * miss_ratio}, ...], ...}, the policies as the services spell them, on the sizes of points.
   */
  public static ObjectNode evictionPoints(long[] cacheBytes, String[] evictions, double[][] missRatios) {
    ObjectNode out = MAPPER.createObjectNode();
    for (int p = 0; p < evictions.length; p++) {
      out.set(evictions[p], mrcPoints(cacheBytes, missRatios[p]));
    }
    return out;
  }

  /**
   * Latency histograms as stored in metric_rollups.latency_us: {"read": {"<ioLength bin label>":
   * [{@value LatencyHistograms#BUCKETS} counts]}, "write": {...}}, only bins with counts.
   */
  public static ObjectNode latency(LatencyHistograms h) {
    ObjectNode root = MAPPER.createObjectNode();
    for (int i = 0; i < h.cells.length; i++) {
      int histogram = h.cells[i] / LatencyHistograms.BUCKETS;
      String direction = histogram >= IoLengthBins.COUNT ? "write" : "read";
      String bin = IoLengthBins.label(histogram % IoLengthBins.COUNT);
      ObjectNode byBin = root.has(direction) ? (ObjectNode) root.get(direction) : root.putObject(direction);
      ArrayNode buckets = (ArrayNode) byBin.get(bin);
      if (buckets == null) {
        buckets = byBin.putArray(bin);
        for (int b = 0; b < LatencyHistograms.BUCKETS; b++) {
          buckets.add(0L);
        }
      }
      buckets.set(h.cells[i] % LatencyHistograms.BUCKETS, h.counts[i]);
    }
    return root;
  }

  /**
   * Per-source I/O as stored in metric_rollups.sources: {"cache" | "peer" | "datastore": {"read" |
   * "write": {"ops": I/Os, "bytes": bytes, "latency_us": [{@value LatencyHistograms#BUCKETS} counts]}}},
   * only the (source, direction) pairs with counts.
   */
  public static ObjectNode sources(SourceIo io) {
    ObjectNode root = MAPPER.createObjectNode();
    for (int s = 0; s < SourceIo.SOURCES.length; s++) {
      for (boolean write : new boolean[] {false, true}) {
        int slot = SourceIo.slot(s, write);
        if (io.isEmpty(slot)) {
          continue;
        }
        ObjectNode bySource = root.has(SourceIo.SOURCES[s])
            ? (ObjectNode) root.get(SourceIo.SOURCES[s]) : root.putObject(SourceIo.SOURCES[s]);
        ObjectNode cell = bySource.putObject(write ? "write" : "read");
        cell.put("ops", io.ops[slot]).put("bytes", io.bytes[slot]);
        ArrayNode latency = cell.putArray("latency_us");
        for (long c : io.latencyOf(slot)) {
          latency.add(c);
        }
      }
    }
    return root;
  }

  /**
   * The workload histograms as stored in metric_rollups.workload: {"seek_distance" |
   * "seek_distance_closest" | "outstanding" | "interarrival_us" | "alignment": {"all" | "read" |
   * "write": [bucket counts over the family's bounds]}, "alignment_work": {"read" | "write":
   * [misaligned bytes, 4 KiB blocks as issued, 4 KiB blocks if aligned]}}, only those with counts.
   */
  public static ObjectNode workload(WorkloadHistograms h) {
    ObjectNode root = MAPPER.createObjectNode();
    for (int i = 0; i < h.cells.length; i++) {
      WorkloadHistograms.Family family = WorkloadHistograms.Family.ofCell(h.cells[i]);
      int offset = h.cells[i] - family.firstCell;
      String direction = WorkloadHistograms.DIRECTIONS[offset / family.buckets()];
      ObjectNode byDirection = root.has(family.json) ? (ObjectNode) root.get(family.json) : root.putObject(family.json);
      ArrayNode buckets = (ArrayNode) byDirection.get(direction);
      if (buckets == null) {
        buckets = byDirection.putArray(direction);
        for (int b = 0; b < family.buckets(); b++) {
          buckets.add(0L);
        }
      }
      buckets.set(offset % family.buckets(), h.counts[i]);
    }
    return root;
  }

  /**
   * The CPU time as stored in metric_rollups.cpu (microseconds): {"host_us": {mode: µs for every
   * system.cpu.time mode}, "host_wall_us": µs, "consumer": {"process" | "cgroup": {"user_us",
   * "system_us", "wall_us"}}}, the host part only when measured, a consumer kind only when it
   * reported; {} when nothing was measured.
   */
  public static ObjectNode cpu(CpuTimes cpu) {
    ObjectNode root = MAPPER.createObjectNode();
    if (cpu.hostWallMicros > 0) {
      ObjectNode host = root.putObject("host_us");
      for (int i = 0; i < CpuTimes.HOST_MODES.length; i++) {
        host.put(CpuTimes.HOST_MODES[i], cpu.hostMicros[i]);
      }
      root.put("host_wall_us", cpu.hostWallMicros);
    }
    for (int k = 0; k < CpuTimes.CONSUMER_KINDS.length; k++) {
      if (cpu.consumerWallMicros[k] > 0) {
        ObjectNode consumer = root.has("consumer") ? (ObjectNode) root.get("consumer") : root.putObject("consumer");
        ObjectNode kind = consumer.putObject(CpuTimes.CONSUMER_KINDS[k]);
        for (int m = 0; m < CpuTimes.CONSUMER_MODES.length; m++) {
          kind.put(CpuTimes.CONSUMER_MODES[m] + "_us", cpu.consumerMicros[k * CpuTimes.CONSUMER_MODES.length + m]);
        }
        kind.put("wall_us", cpu.consumerWallMicros[k]);
      }
    }
    return root;
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
