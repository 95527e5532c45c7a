package io.tierwise.jobs.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tierwise.jobs.workingset.estimate.MissRatioCurve;
import io.tierwise.proto.v1.ReferenceBatch;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The edge agent's CLI (edge-agent/build/tierwise-agent): {@code sample-refs} writes the
 * length-delimited ReferenceBatch stream the agent would ship; {@code mrc --exact} prints the
 * exact MRC as JSON [{cache_bytes, miss_ratio}] (LRU, or the engine's policy with {@code --eviction});
 * {@code block-refs} prints a volume's 4 KiB block references; {@code replay} runs the cache engine.
 */
public final class AgentReferenceSource implements ReferenceSource {
  private final Path binary;

  /** @param binary path of tierwise-agent */
  public AgentReferenceSource(Path binary) {
    this.binary = binary;
  }

  /** edge-agent/build/tierwise-agent of this checkout. */
  public static Path defaultBinary() {
    return Repo.root().resolve("edge-agent/build/tierwise-agent");
  }

  @Override
  public String name() {
    return "agent " + binary;
  }

  @Override
  public List<ReferenceBatch> sample(Path trace, String keyHex, double rate) throws Exception {
    return sample(trace, keyHex, rate, null);
  }

  /**
   * The sampled reference batches of one volume of a trace ({@code sample-refs --volume}).
   *
   * @param volume the volume, or null for every volume of the trace
   */
  public List<ReferenceBatch> sample(Path trace, String keyHex, double rate, String volume) throws Exception {
    Path out = Files.createTempFile("tierwise-refs-", ".bin");
    try {
      List<String> command = new ArrayList<>(List.of(binary.toString(), "sample-refs", trace.toString(), "--key",
          keyHex, "--rate", Double.toString(rate), "--out", out.toString()));
      if (volume != null) {
        command.addAll(List.of("--volume", volume));
      }
      run(command.toArray(String[]::new));
      List<ReferenceBatch> batches = new ArrayList<>();
      try (InputStream in = Files.newInputStream(out)) {
        ReferenceBatch b;
        while ((b = ReferenceBatch.parseDelimitedFrom(in)) != null) {
          batches.add(b);
        }
      }
      return batches;
    } finally {
      Files.deleteIfExists(out);
    }
  }

  @Override
  public MissRatioCurve exactMrc(Path trace, long[] cacheBytes) throws Exception {
    return exactMrc(trace, cacheBytes, null, null);
  }

  /**
   * The exact miss ratio curve of one volume of a trace under an eviction policy ({@code mrc --exact
   * --eviction policy}: the engine's policy simulated at each size over every 4 KiB block reference).
   *
   * @param cacheBytes sizes in bytes (multiples of 4096)
   * @param policy the policy's name (lru, s3fifo, arc, 2q, sieve), or null for the command's own
   *     default, exact LRU, without the {@code --eviction} option
   * @param volume the volume ({@code --volume}), or null for a trace of one volume
   */
  public MissRatioCurve exactMrc(Path trace, long[] cacheBytes, String policy, String volume) throws Exception {
    return exactMrc(trace, cacheBytes, policy, volume, false);
  }

  /**
   * The same, or with {@code sharedTier} the curve of every volume of the trace in one tier
   * ({@code --shared-tier}: as on a host whose tier device they share; {@code volume} null).
   */
  public MissRatioCurve exactMrc(Path trace, long[] cacheBytes, String policy, String volume, boolean sharedTier)
      throws Exception {
    String sizes = Arrays.stream(cacheBytes).mapToObj(b -> b + "B")
        .collect(Collectors.joining(","));
    List<String> command = new ArrayList<>(List.of(binary.toString(), "mrc", trace.toString(), "--exact",
        "--sizes", sizes));
    if (policy != null) {
      command.addAll(List.of("--eviction", policy));
    }
    if (volume != null) {
      command.addAll(List.of("--volume", volume));
    }
    if (sharedTier) {
      command.add("--shared-tier");
    }
    JsonNode points = new ObjectMapper().readTree(run(command.toArray(String[]::new)));
    double[] miss = new double[cacheBytes.length];
    if (!points.isArray() || points.size() != cacheBytes.length) {
      throw new AssertionError("tierwise-agent mrc returned " + points + " for sizes " + sizes);
    }
    for (int i = 0; i < miss.length; i++) {
      if (points.get(i).get("cache_bytes").asLong() != cacheBytes[i]) {
        throw new AssertionError("tierwise-agent mrc point " + i + " is " + points.get(i)
            + ", expected cache_bytes " + cacheBytes[i]);
      }
      miss[i] = points.get(i).get("miss_ratio").asDouble();
    }
    return new MissRatioCurve(cacheBytes, miss);
  }

  /**
   * Every 4 KiB block one volume of a trace references, in trace order ({@code block-refs}: the
   * agent's own trace readers, every format it reads).
   *
   * @param volume the volume ({@code --volume}), or null for a trace of one volume
   */
  public long[] blockReferences(Path trace, String volume) throws Exception {
    List<String> command = new ArrayList<>(List.of(binary.toString(), "block-refs", trace.toString()));
    if (volume != null) {
      command.addAll(List.of("--volume", volume));
    }
    return run(command.toArray(String[]::new)).lines().mapToLong(Long::parseUnsignedLong).toArray();
  }

  /**
   * Replays a trace through the agent's cache engine ({@code replay --dry-run}) with a RAM tier of
   * {@code tierBytes} (a multiple of 1 MiB) under eviction policy {@code eviction} (the agent's
   * spelling), {@code queueDepth} front-end I/Os in flight (the agent's default is 32), and returns the
   * trace's summary: hits, misses, read_hits, read_misses (4 KiB blocks).
   */
  public JsonNode replay(Path trace, String format, long tierBytes, String eviction, int queueDepth, Path keyFile)
      throws Exception {
    Path summary = Files.createTempFile("tierwise-replay-", ".json");
    try {
      run(binary.toString(), "replay", trace.toString(), "--format", format, "--tier-size",
          (tierBytes / MissRatioCurve.MIB) + "MiB", "--eviction", eviction, "--dry-run", "--queue-depth",
          Integer.toString(queueDepth), "--key-file", keyFile.toString(), "--json-summary", summary.toString());
      return new ObjectMapper().readTree(summary.toFile()).get("traces").get(0);
    } finally {
      Files.deleteIfExists(summary);
    }
  }

  private static String run(String... command) throws Exception {
    Path stdout = Files.createTempFile("tierwise-agent-", ".out");
    Path stderr = Files.createTempFile("tierwise-agent-", ".err");
    try {
      Process p = new ProcessBuilder(command).redirectOutput(stdout.toFile())
          .redirectError(stderr.toFile()).start();
      if (!p.waitFor(5, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new AssertionError(String.join(" ", command) + " did not finish within 5 minutes");
      }
      if (p.exitValue() != 0) {
        throw new AssertionError(String.join(" ", command) + " exited " + p.exitValue() + ": "
            + Files.readString(stderr));
      }
      return Files.readString(stdout);
    } finally {
      Files.deleteIfExists(stdout);
      Files.deleteIfExists(stderr);
    }
  }
}
