package io.tierwise.jobs.sink;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** JSON for the jsonb columns (Jackson). */
public final class Json {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}

  /** A new empty JSON object. */
  public static ObjectNode object() {
    return MAPPER.createObjectNode();
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

  /** The compact JSON text of {@code node}. */
  public static String text(Object node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
    }
  }
}
