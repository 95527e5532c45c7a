package io.tierwise.jobs.workingset.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tierwise.jobs.workingset.estimate.eviction.EvictionPolicy;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class MiniatureSimulationsTest {
  private static final long MIB = 1 << 20;
  private static final long[] GRID = {4 * MIB, 8 * MIB, 16 * MIB};
  private static final long P = 1 << 24;

  /** A well-mixed 64-bit id for a block number, as the agent's keyed hash gives (sampling needs it). */
  private static long hash(long block) {
    long z = block * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    return z ^ (z >>> 31);
  }

  /** A loop over 1,500 blocks (5.9 MiB) with a hot set of 100, every block in the agent's sample (T = P). */
  private static MiniatureSimulations run(int references) {
    MiniatureSimulations m = new MiniatureSimulations(List.of(EvictionPolicy.values()), GRID, P, P, 512);
    Random random = new Random(7);
    for (int i = 0; i < references; i++) {
      long block = random.nextInt(4) == 0 ? random.nextInt(100) : 1000 + i % 1500;
      m.reference(hash(block), i % 5 == 0);
    }
    return m;
  }

  @Test
  void aLoopLargerThanTheCacheIsAllMissesForLruAndNotForS3Fifo() {
    MiniatureSimulations m = run(30_000);
    double[] lru = m.miniatureMissRatios(EvictionPolicy.LRU, false);
    double[] s3fifo = m.miniatureMissRatios(EvictionPolicy.S3FIFO, false);
    // At 4 MiB (1,024 blocks) LRU loses the 1,500-block loop; S3-FIFO keeps part of it.
    assertThat(s3fifo[0]).isLessThan(lru[0] - 0.05);
    assertThat(m.difference(EvictionPolicy.S3FIFO, 4 * MIB, false)).isCloseTo(s3fifo[0] - lru[0], org.assertj.core.api.Assertions.within(1e-12));
    // Past the footprint no cache evicts: every policy's difference is 0.
    assertThat(m.difference(EvictionPolicy.S3FIFO, 16 * MIB, false)).isEqualTo(0);
    assertThat(m.difference(EvictionPolicy.S3FIFO, 1L << 40, false)).isEqualTo(0);
    // Between two sizes, interpolated in log(size): 6 MiB lies between 4 and 8 MiB.
    double at6 = m.difference(EvictionPolicy.S3FIFO, 6 * MIB, false);
    double d4 = m.difference(EvictionPolicy.S3FIFO, 4 * MIB, false);
    double d8 = m.difference(EvictionPolicy.S3FIFO, 8 * MIB, false);
    assertThat(at6).isBetween(Math.min(d4, d8), Math.max(d4, d8));
  }

  @Test
  void aSizeHoldsNoCacheUntilItSamplesABlock() throws IOException {
    MiniatureSimulations m = new MiniatureSimulations(List.of(EvictionPolicy.values()), GRID, P, P, 512);
    long counters = GRID.length * 8L * (3 + 2 * EvictionPolicy.values().length);
    assertThat(m.stateBytes()).as("counters only").isEqualTo(counters);
    // Written as new caches, read back without them.
    DataOutputSerializer out = new DataOutputSerializer(64);
    m.writeTo(out);
    assertThat(out.length()).isEqualTo(m.serializedBytes());
    MiniatureSimulations read = MiniatureSimulations.readFrom(new DataInputDeserializer(out.getSharedBuffer(), 0, out.length()));
    assertThat(read.stateBytes()).isEqualTo(counters);
    read.reference(hash(1), false);
    assertThat(read.stateBytes()).isGreaterThan(counters);
    // A first reference misses wherever it was sampled; a size that sampled none has no ratio yet.
    assertThat(read.miniatureMissRatios(EvictionPolicy.S3FIFO, false)).containsAnyOf(1.0).doesNotContain(0.0);
  }

  @Test
  void theStateRoundTripsAndItsSizeIsWhatIsWritten() throws IOException {
    MiniatureSimulations m = run(20_000);
    DataOutputSerializer out = new DataOutputSerializer(1 << 16);
    m.writeTo(out);
    assertThat((long) out.length()).isEqualTo(m.serializedBytes());
    MiniatureSimulations restored = MiniatureSimulations.readFrom(new DataInputDeserializer(out.getCopyOfBuffer()));
    MiniatureSimulations copy = m.copy();
    Random random = new Random(11);
    for (int i = 0; i < 5_000; i++) {
      long block = hash(random.nextInt(5000));
      m.reference(block, false);
      restored.reference(block, false);
      copy.reference(block, false);
    }
    for (EvictionPolicy p : EvictionPolicy.values()) {
      assertThat(restored.miniatureMissRatios(p, false)).containsExactly(m.miniatureMissRatios(p, false));
      assertThat(copy.miniatureMissRatios(p, true)).containsExactly(m.miniatureMissRatios(p, true));
    }
  }

  @Test
  void aLowerAgentThresholdShrinksTheSamplesAndCaches() {
    MiniatureSimulations m = run(10_000);
    m.followAgentThreshold(P / 4);
    assertThat(m.rate(0)).isLessThanOrEqualTo(0.25 * 7 / 8 + 1e-9);
    assertThatThrownBy(() -> m.followAgentThreshold(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new MiniatureSimulations(List.of(EvictionPolicy.S3FIFO), GRID, P, P, 512))
        .hasMessageContaining("LRU");
  }

  @Test
  void aCorruptStateIsRefusedWithAReason() {
    DataOutputSerializer out = new DataOutputSerializer(64);
    assertThatThrownBy(() -> {
      out.writeInt(99);
      MiniatureSimulations.readFrom(new DataInputDeserializer(out.getCopyOfBuffer()));
    }).isInstanceOf(IOException.class).hasMessageContaining("format 99");
  }
}
