package io.tierwise.jobs.json;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tierwise.jobs.metrics.CpuTimes;
import io.tierwise.jobs.metrics.IoLengthBins;
import io.tierwise.jobs.metrics.LatencyHistograms;
import io.tierwise.jobs.metrics.SourceIo;
import io.tierwise.jobs.metrics.WorkloadHistograms;

/**
 * The rollup rows' and the MRC rows' documents built node by node as a Jackson tree and then
 * written, as {@link Json} made them before it wrote them straight to text: the reference its
 * tests compare with, and the peer of the paired bench (bench/analytics/row-documents.sh).
 */
public final class JsonTrees {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private JsonTrees() {}

  /** {@link Json#latency}'s document. */
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

  /** {@link Json#latencySumsPerBin} ({@code sums} given) or {@link Json#opsPerBin}'s document. */
  public static ObjectNode perBin(double[] sums, long[] ops) {
    ObjectNode root = MAPPER.createObjectNode();
    for (int bin = 0; bin < IoLengthBins.COUNT; bin++) {
      if (ops[bin] > 0) {
        Long upper = IoLengthBins.upperBytes(bin);
        String key = upper == null ? IoLengthBins.label(bin) : upper.toString();
        if (sums != null) {
          root.put(key, sums[bin]);
        } else {
          root.put(key, ops[bin]);
        }
      }
    }
    return root;
  }

  /** {@link Json#mrcPoints}'s document. */
  public static ArrayNode mrcPoints(long[] cacheBytes, double[] missRatios) {
    ArrayNode points = MAPPER.createArrayNode();
    for (int i = 0; i < cacheBytes.length; i++) {
      points.addObject().put("cache_bytes", cacheBytes[i]).put("miss_ratio", missRatios[i]);
    }
    return points;
  }

  /** {@link Json#evictionPoints}'s document. */
  public static ObjectNode evictionPoints(long[] cacheBytes, String[] evictions, double[][] missRatios) {
    ObjectNode out = MAPPER.createObjectNode();
    for (int p = 0; p < evictions.length; p++) {
      out.set(evictions[p], mrcPoints(cacheBytes, missRatios[p]));
    }
    return out;
  }
}
