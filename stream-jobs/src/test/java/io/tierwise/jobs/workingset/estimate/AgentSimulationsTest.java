package io.tierwise.jobs.workingset.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tierwise.jobs.workingset.estimate.eviction.EvictionPolicy;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class AgentSimulationsTest {
  private static final long P = 1 << 24;
  private static final long MIB = 1 << 20;

  /** One size's counts of one batch: misses per policy in EvictionPolicy order (reads: none). */
  private static MiniatureBatch batch(long cacheBytes, long threshold, long references, long... misses) {
    MiniatureBatch b = new MiniatureBatch();
    b.cacheBytes = new long[] {cacheBytes};
    b.thresholds = new long[] {threshold};
    b.references = new long[] {references};
    b.readReferences = new long[] {0};
    b.misses = new long[][] {misses};
    b.readMisses = new long[][] {new long[misses.length]};
    return b;
  }

  @Test
  void weighsEachBatchByItsOwnRateAndAddsThemUp() {
    AgentSimulations a = new AgentSimulations(P);
    // At T_C = P/2, 100 references stand for 200; S3-FIFO misses 10 fewer than LRU.
    a.add(batch(4 * MIB, P / 2, 100, 60, 50, 60, 60, 60));
    // After a lowering to P/4, 50 references stand for 200; S3-FIFO misses 10 fewer again.
    a.add(batch(4 * MIB, P / 4, 50, 30, 20, 30, 30, 30));
    // (50 - 60) x 2 + (20 - 30) x 4 = -60 weighted misses over 400 weighted references.
    assertThat(a.difference(EvictionPolicy.S3FIFO, 4 * MIB, false)).isCloseTo(-60.0 / 400, within(1e-12));
    assertThat(a.difference(EvictionPolicy.LRU, 4 * MIB, false)).isZero();
    assertThat(a.difference(EvictionPolicy.S3FIFO, 4 * MIB, true)).as("no reads").isZero();
    // Below the first size, the first's; above the last, 0.
    assertThat(a.difference(EvictionPolicy.S3FIFO, MIB, false)).isCloseTo(-0.15, within(1e-12));
    assertThat(a.difference(EvictionPolicy.S3FIFO, 8 * MIB, false)).isZero();
  }

  @Test
  void interpolatesBetweenTheSizesItHasSeen() {
    AgentSimulations a = new AgentSimulations(P);
    a.add(batch(4 * MIB, P, 100, 50, 40, 50, 50, 50));
    a.add(batch(16 * MIB, P, 100, 30, 10, 30, 30, 30));
    // 8 MiB is halfway between 4 and 16 MiB in the logarithm: -0.1 and -0.2 average to -0.15.
    assertThat(a.difference(EvictionPolicy.S3FIFO, 8 * MIB, false)).isCloseTo(-0.15, within(1e-12));
    EvictionDifferences d = a.differences();
    assertThat(d.cacheBytes).containsExactly(4 * MIB, 16 * MIB);
    assertThat(d.difference(EvictionPolicy.S3FIFO, 8 * MIB, false)).isCloseTo(-0.15, within(1e-12));
    assertThat(new AgentSimulations(P).difference(EvictionPolicy.S3FIFO, 8 * MIB, false)).as("nothing yet").isZero();
  }

  @Test
  void aCheckpointAndACopyKeepEveryCount() throws Exception {
    AgentSimulations a = new AgentSimulations(P);
    a.add(batch(4 * MIB, P / 2, 100, 60, 50, 55, 58, 52));
    a.add(batch(6 * MIB, P / 3, 70, 40, 30, 35, 38, 32));
    DataOutputSerializer out = new DataOutputSerializer(256);
    a.writeTo(out);
    assertThat((long) out.length()).isEqualTo(a.serializedBytes());
    AgentSimulations read = AgentSimulations.readFrom(new DataInputDeserializer(out.getCopyOfBuffer()));
    AgentSimulations copy = a.copy();
    a.add(batch(4 * MIB, P / 2, 100, 100, 0, 100, 100, 100));
    for (EvictionPolicy p : EvictionPolicy.values()) {
      for (long bytes : new long[] {4 * MIB, 5 * MIB, 6 * MIB}) {
        double before = copy.difference(p, bytes, false);
        assertThat(read.difference(p, bytes, false)).isEqualTo(before);
      }
    }
    assertThat(a.difference(EvictionPolicy.S3FIFO, 4 * MIB, false))
        .isNotEqualTo(copy.difference(EvictionPolicy.S3FIFO, 4 * MIB, false));
  }
}
