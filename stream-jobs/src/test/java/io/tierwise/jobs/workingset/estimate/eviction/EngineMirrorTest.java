package io.tierwise.jobs.workingset.estimate.eviction;

import static org.assertj.core.api.Assertions.assertThat;

import io.tierwise.jobs.testing.AgentReferenceSource;
import io.tierwise.jobs.testing.RealTraces;
import io.tierwise.jobs.testing.Repo;
import io.tierwise.jobs.testing.VscsiTrace;
import io.tierwise.jobs.workingset.estimate.MissRatioCurve;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each Java mirror against the agent's cache engine on the real traces (../shared/traces): the
 * CloudPhysics vscsi trace, msr_hm_0, both SYSTOR '17 samples and the ten busiest Tencent CBS
 * volumes by 4 KiB block references. For each trace and each of its sizes (1 MiB, 16 MiB, 128 MiB
 * and 1 %, 10 % and 50 % of the trace's footprint, in 4 KiB blocks, at least one), the mirror's
 * miss ratio over every block reference in trace order must equal, as a double, the one
 * {@code tierwise-agent mrc TRACE --exact --eviction P --sizes ... [--volume V]} prints: misses over
 * references, so the same count of misses. Block references: {@link VscsiTrace} for the vscsi file,
 * the agent's {@code block-refs} for the CSV formats.
 *
 * <p>Without the agent binary the test is skipped, and fails under CI (CI=true). The streams:
 * {@link RealTraces}.
 */
class EngineMirrorTest {
  private static final int BLOCK = 4096;

  /** One volume's block reference stream and the sizes it is checked at. */
  private record Stream(String name, Path trace, String volume, long[] refs, long[] cacheBytes) {}

  private static AgentReferenceSource agent;
  private static final List<Stream> STREAMS = new ArrayList<>();

  @BeforeAll
  static void loadTraces() throws Exception {
    Path binary = AgentReferenceSource.defaultBinary();
    if (!Files.isExecutable(binary)) {
      assertThat(Repo.isCi()).as(binary + " is needed (npm run -w @tierwise/edge-agent build)").isFalse();
      Assumptions.abort(binary + " is not built: the mirror test needs the agent's engine");
    }
    agent = new AgentReferenceSource(binary);
    for (RealTraces.Stream s : RealTraces.all()) {
      long[] refs = s.volume() == null && s.file().endsWith(".vscsi")
          ? VscsiTrace.blockReferences(s.trace()).stream().mapToLong(VscsiTrace.BlockRef::block).toArray()
          : agent.blockReferences(s.trace(), s.volume());
      STREAMS.add(stream(s.label(), s.trace(), s.volume(), refs));
    }
  }

  @ParameterizedTest
  @EnumSource(EvictionPolicy.class)
  void theMirrorMissesExactlyWhereTheEngineDoesOnEveryRealTrace(EvictionPolicy policy) throws Exception {
    long start = System.nanoTime();
    List<String> mismatches = new ArrayList<>();
    long checked = 0;
    for (Stream s : STREAMS) {
      MissRatioCurve engine = agent.exactMrc(s.trace, s.cacheBytes, policy.wireName(), s.volume);
      StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-6s %-44s %,9d refs:",
          policy.wireName(), s.name, s.refs.length));
      for (int i = 0; i < s.cacheBytes.length; i++) {
        int blocks = (int) (s.cacheBytes[i] / BLOCK);
        SimulatedCache cache = policy.newCache(blocks);
        long misses = 0;
        for (long block : s.refs) {
          if (!cache.access(block)) {
            misses++;
          }
        }
        double mirror = (double) misses / s.refs.length;
        line.append(String.format(Locale.ROOT, " %d:%.4f", blocks, mirror));
        if (mirror != engine.missRatio(i)) {
          mismatches.add(String.format(Locale.ROOT, "%s %s at %d blocks: engine %s, mirror %s (%d misses)",
              policy.wireName(), s.name, blocks, engine.missRatio(i), mirror, misses));
          line.append(" (engine ").append(engine.missRatio(i)).append(')');
        }
        checked++;
      }
      System.out.println(line);
    }
    System.out.printf(Locale.ROOT, "%s: %d traces, %d sizes, %d mismatches, %.1f s%n", policy.wireName(),
        STREAMS.size(), checked, mismatches.size(), (System.nanoTime() - start) / 1e9);
    assertThat(mismatches).as("sizes where the mirror's miss ratio differs from the engine's").isEmpty();
  }

  /** The sizes of a stream: 1, 16 and 128 MiB and 1, 10 and 50 % of its footprint (>= 1 block). */
  private static Stream stream(String name, Path trace, String volume, long[] refs) {
    assertThat(refs).as(name + " block references").isNotEmpty();
    LongOpenHashSet distinct = new LongOpenHashSet();
    for (long block : refs) {
      distinct.add(block);
    }
    TreeSet<Long> blocks = new TreeSet<>(List.of(256L, 4096L, 32768L));
    for (int percent : new int[] {1, 10, 50}) {
      blocks.add(Math.max(1, distinct.size() * (long) percent / 100));
    }
    return new Stream(name, trace, volume, refs, blocks.stream().mapToLong(b -> b * BLOCK).toArray());
  }
}
