package io.tierwise.jobs.workingset.estimate.eviction;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.apache.flink.core.memory.DataOutputSerializer;

/** Compares simulated caches by their checkpoint bytes: equal bytes, equal future hits and misses. */
final class CacheStates {
  private CacheStates() {}

  /** Asserts that each of {@code actual} writes the bytes of the same policy's cache in {@code expected}. */
  static void assertSameStates(SimulatedCache[] actual, SimulatedCache[] expected, String when) throws IOException {
    for (int p = 0; p < expected.length; p++) {
      assertThat(bytes(actual[p])).as("%s, %s", when, expected[p].policy()).isEqualTo(bytes(expected[p]));
    }
  }

  /** {@code cache}'s {@link SimulatedCache#writeTo} bytes. */
  static byte[] bytes(SimulatedCache cache) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(1024);
    cache.writeTo(out);
    return out.getCopyOfBuffer();
  }
}
