package io.tierwise.jobs.workingset.estimate.eviction;

import static org.assertj.core.api.Assertions.assertThat;

import io.tierwise.jobs.testing.AgentReferenceSource;
import io.tierwise.jobs.testing.Repo;
import io.tierwise.jobs.testing.VscsiTrace;
import io.tierwise.jobs.workingset.MissRatioCurve;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
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
 * <p>Without the agent binary the test is skipped, and fails under CI (CI=true). An agent whose
 * {@code mrc} has no {@code --eviction} (an older build) is compared for LRU only (its
 * {@code mrc --exact} is exact LRU); the other policies are then skipped, and fail under CI.
 */
class EngineMirrorTest {
  private static final int BLOCK = 4096;
  private static final int TENCENT_VOLUMES = 10;

  /** One volume's block reference stream and the sizes it is checked at. */
  private record Stream(String name, Path trace, String volume, long[] refs, long[] cacheBytes) {}

  private static AgentReferenceSource agent;
  private static boolean evictionOption;
  private static final List<Stream> STREAMS = new ArrayList<>();

  @BeforeAll
  static void loadTraces() throws Exception {
    Path binary = AgentReferenceSource.defaultBinary();
    if (!Files.isExecutable(binary)) {
      assertThat(Repo.isCi()).as(binary + " is needed (npm run -w @tierwise/edge-agent build)").isFalse();
      Assumptions.abort(binary + " is not built: the mirror test needs the agent's engine");
    }
    agent = new AgentReferenceSource(binary);
    evictionOption = agent.mrcHasEvictionOption();
    Path traces = Repo.traces();
    Path vscsi = traces.resolve("cloudphysics_w_sample.vscsi");
    assertThat(vscsi).as("the shared trace (TIERWISE_TRACES_DIR)").isRegularFile();
    STREAMS.add(stream(vscsi.getFileName().toString(), vscsi, null,
        VscsiTrace.blockReferences(vscsi).stream().mapToLong(VscsiTrace.BlockRef::block).toArray()));
    for (String name : List.of("msr_hm_0_sample1000.csv", "systor17_lun0_sample_a.csv.gz",
        "systor17_lun0_sample_b.csv.gz")) {
      Path trace = traces.resolve(name);
      assertThat(trace).as("the shared trace (TIERWISE_TRACES_DIR)").isRegularFile();
      STREAMS.add(stream(name, trace, null, agent.blockReferences(trace, null)));
    }
    Path tencent = traces.resolve("tencent_cbs_sample50k.csv.bz2");
    assertThat(tencent).as("the shared trace (TIERWISE_TRACES_DIR)").isRegularFile();
    for (String volume : busiestTencentVolumes(tencent)) {
      STREAMS.add(stream(tencent.getFileName() + " " + volume, tencent, volume,
          agent.blockReferences(tencent, volume)));
    }
  }

  @ParameterizedTest
  @EnumSource(EvictionPolicy.class)
  void theMirrorMissesExactlyWhereTheEngineDoesOnEveryRealTrace(EvictionPolicy policy) throws Exception {
    if (policy != EvictionPolicy.LRU && !evictionOption) {
      assertThat(Repo.isCi()).as("tierwise-agent mrc has no --eviction: rebuild the agent").isFalse();
      Assumptions.abort("tierwise-agent mrc has no --eviction: only LRU is compared");
    }
    long start = System.nanoTime();
    List<String> mismatches = new ArrayList<>();
    long checked = 0;
    for (Stream s : STREAMS) {
      MissRatioCurve engine = agent.exactMrc(s.trace, s.cacheBytes,
          evictionOption ? policy.wireName() : null, s.volume);
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

  /**
   * The Tencent volumes with the most 4 KiB block references (fields Timestamp, Offset, Size,
   * IOType, VolumeID; Offset and Size in 512-byte sectors), ties by volume id; named as the agent
   * names them, cbs-ID.
   */
  private static List<String> busiestTencentVolumes(Path trace) throws Exception {
    Map<Long, Long> refs = new HashMap<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
        new BZip2CompressorInputStream(Files.newInputStream(trace)), StandardCharsets.US_ASCII))) {
      for (String line; (line = in.readLine()) != null; ) {
        String[] f = line.split(",");
        long offset = Long.parseLong(f[1]) * 512;
        long length = Long.parseLong(f[2]) * 512;
        refs.merge(Long.parseLong(f[4]), (offset + length - 1) / BLOCK - offset / BLOCK + 1, Long::sum);
      }
    }
    return refs.entrySet().stream()
        .sorted(Comparator.comparing(Map.Entry<Long, Long>::getValue).reversed()
            .thenComparing(Map.Entry::getKey))
        .limit(TENCENT_VOLUMES).map(e -> "cbs-" + e.getKey()).toList();
  }
}
