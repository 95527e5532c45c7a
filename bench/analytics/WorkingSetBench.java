import io.tierwise.jobs.workingset.pipeline.VolumeAnalysis;
import io.tierwise.jobs.workingset.pipeline.VolumeLatency;
import io.tierwise.jobs.workingset.pipeline.WorkingSetFunction;
import io.tierwise.jobs.testing.VscsiTrace;
import io.tierwise.jobs.workingset.estimate.MissRatioCurve;
import io.tierwise.jobs.workingset.estimate.MrcEstimator;
import io.tierwise.jobs.workingset.estimate.MrcEstimators;
import io.tierwise.jobs.workingset.pipeline.ReferenceBatchEvent;
import io.tierwise.jobs.workingset.pipeline.ReferenceBatchParser;
import io.tierwise.jobs.workingset.estimate.ShardsFixedRate;
import io.tierwise.jobs.workingset.estimate.ShardsFixedSize;
import io.tierwise.jobs.workingset.estimate.WindowedEstimators;
import io.tierwise.proto.v1.ReferenceBatch;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.util.Collector;
import java.io.BufferedWriter;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.legacy.DiscardingSink;

/**
 * Analytics benchmark (docs/analytics.md): on the CloudPhysics trace,
 * (1) the working-set job's throughput, sampled references per second per core, in a Flink
 * MiniCluster at parallelism 1 and 2 (copies of the volume under distinct ids, so keys spread);
 * (2) the state bytes of one volume (every window); (3) MRC accuracy (mean absolute error against
 * the agent's exact LRU MRC) and time of fixed-rate and fixed-size SHARDS here, and of the peer,
 * libCacheSim's LRU simulation over its spatial (SHARDS-style) sample, in the same run, when
 * LIBCACHESIM_CACHESIM names its cachesim binary; (4) with SMALL_REFS (the agent's references of a
 * trace of many small volumes, the Tencent sample), every volume's estimators with every eviction
 * policy simulated, fed its own references: references per second and their state.
 *
 * Usage: java -cp <stream-jobs jar>:<stream-jobs test-classes> WorkingSetBench.java AGENT TRACE REFS VOLUMES [SMALL_REFS]
 */
public class WorkingSetBench {
  private static final String TENANT = "00000000-0000-0000-0000-0000000be7c4";

  public static void main(String[] args) throws Exception {
    Path agent = Path.of(args[0]);
    Path trace = Path.of(args[1]);
    List<ReferenceBatchEvent> events = read(Path.of(args[2]));
    int volumes = Integer.parseInt(args[3]);
    long refs = events.stream().mapToLong(ReferenceBatchEvent::size).sum();
    System.out.printf(Locale.ROOT, "trace %s: %,d sampled references in %d batches (agent defaults)%n", trace, refs,
        events.size());

    for (int parallelism : new int[] {1, 2}) {
      double seconds = flinkRun(events, volumes, parallelism);
      double perSecond = refs * volumes / seconds;
      System.out.printf(Locale.ROOT, "working-set job, parallelism %d, %d volumes: %.1f s, %,.0f references/s,"
          + " %,.0f references/s per core%n", parallelism, volumes, seconds, perSecond, perSecond / parallelism);
    }

    // One volume's estimators fed the stream, LRU alone (a cluster's, and the job before issue 15)
    // against every eviction policy simulated (a volume's now): paired rounds, medians.
    int rounds = 7;
    double[] lruOnly = new double[rounds];
    double[] withPolicies = new double[rounds];
    WindowedEstimators[] last = new WindowedEstimators[2];
    for (int round = 0; round < rounds; round++) {
      for (int variant = 0; variant < 2; variant++) {
        long start = System.nanoTime();
        last[variant] = feed(events, variant == 1);
        double perSecond = refs / ((System.nanoTime() - start) / 1e9);
        (variant == 0 ? lruOnly : withPolicies)[round] = perSecond;
      }
    }
    System.out.printf(Locale.ROOT, "one volume's estimators, median of %d paired rounds: LRU alone %,.0f references/s,"
        + " with every eviction policy simulated %,.0f references/s (%.2fx)%n", rounds, median(lruOnly),
        median(withPolicies), median(lruOnly) / median(withPolicies));
    System.out.printf(Locale.ROOT, "state of one volume (windows all, 1h, 24h, 7d: one sample, %d panes): %,d bytes"
        + " (LRU alone: %,d); window 'all' alone: %,d bytes%n", 3 * WindowedEstimators.PANES,
        last[1].stateBytes(), last[0].stateBytes(), last[0].all().stateBytes());

    if (args.length > 4) {
      manySmallVolumes(read(Path.of(args[4])));
    }

    long[] sizes = java.util.Arrays.stream(MissRatioCurve.cacheSizeGrid(0))
        .filter(b -> b >= 16 * MissRatioCurve.MIB && b <= MissRatioCurve.GIB).toArray();
    MissRatioCurve exact = exactMrc(agent, trace, sizes);
    for (MrcEstimator s : new MrcEstimator[] {
        new ShardsFixedSize(events.get(0).samplingModulus, events.get(0).samplingThreshold, 8192),
        new ShardsFixedRate(events.get(0).samplingModulus, Math.round(0.01 * events.get(0).samplingModulus))}) {
      long start = System.nanoTime();
      for (ReferenceBatchEvent e : events) {
        if (s instanceof ShardsFixedSize f) {
          f.lowerThreshold(e.samplingThreshold);
        }
        s.addStreamTotals(e.consideredReferences, e.distinctBlocksHllPrecision, e.distinctBlocksHllUpdates);
        for (int i = 0; i < e.size(); i++) {
          if (!(s instanceof ShardsFixedRate r) || r.isSampled(e.blockHashes[i])) {
            s.reference(e.blockHashes[i], e.writes[i]);
          }
        }
      }
      MissRatioCurve mrc = s.missRatioCurve(sizes);
      double ms = (System.nanoTime() - start) / 1e6;
      System.out.printf(Locale.ROOT, "tierwise %-18s MAE %.4f, %,.0f ms (from the agent's sampled references),"
          + " state %,d bytes%n", s.method(), mrc.meanAbsoluteError(exact), ms, s.stateBytes());
    }
    String peer = System.getenv("LIBCACHESIM_CACHESIM");
    if (peer == null || peer.isBlank()) {
      System.out.println("peer skipped: set LIBCACHESIM_CACHESIM to libCacheSim's cachesim binary");
      return;
    }
    Path peerDir = Files.createTempDirectory("tierwise-bench-peer-");
    Path csv = peerDir.resolve("blocks.csv");
    try {
      try (BufferedWriter out = Files.newBufferedWriter(csv)) {
        for (VscsiTrace.BlockRef r : VscsiTrace.blockReferences(trace)) {
          out.write(r.timeMicros() + "," + r.block() + ",4096\n");
        }
      }
      for (double ratio : new double[] {0.01, 0.03, 1}) {
        peerRun(peer, csv, sizes, ratio, exact);
      }
    } finally {
      try (var files = Files.walk(peerDir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }

  /** A volume's estimators after the whole stream, with or without the eviction policies simulated. */
  private static WindowedEstimators feed(List<ReferenceBatchEvent> events, boolean policies) {
    long p = events.get(0).samplingModulus;
    long t = events.get(0).samplingThreshold;
    WindowedEstimators w = policies ? WindowedEstimators.withPolicies(MrcEstimators.DEFAULT, p, t)
        : new WindowedEstimators(MrcEstimators.DEFAULT, p, t);
    for (ReferenceBatchEvent e : events) {
      if (Long.compareUnsigned(e.samplingThreshold, w.threshold()) < 0) {
        w.lowerThreshold(e.samplingThreshold);
      }
      w.addStreamTotals(e.consideredReferences, e.distinctBlocksHllPrecision, e.distinctBlocksHllUpdates);
      for (int i = 0; i < e.size(); i++) {
        w.reference(e.blockHashes[i], e.writes[i], e.referenceTimeUnixNano(i));
      }
    }
    return w;
  }

  /** Every volume's estimators with the policies, each fed its own references: median of 7 rounds. */
  private static void manySmallVolumes(List<ReferenceBatchEvent> events) {
    java.util.Map<String, List<ReferenceBatchEvent>> byVolume = new java.util.LinkedHashMap<>();
    for (ReferenceBatchEvent e : events) {
      byVolume.computeIfAbsent(e.volumeId, v -> new ArrayList<>()).add(e);
    }
    long refs = events.stream().mapToLong(ReferenceBatchEvent::size).sum();
    double[] perSecond = new double[7];
    long state = 0;
    for (int round = -2; round < perSecond.length; round++) {
      long start = System.nanoTime();
      state = 0;
      for (List<ReferenceBatchEvent> volume : byVolume.values()) {
        state += feed(volume, true).stateBytes();
      }
      if (round >= 0) {
        perSecond[round] = refs / ((System.nanoTime() - start) / 1e9);
      }
    }
    System.out.printf(Locale.ROOT, "%d small volumes' estimators with every eviction policy (%,d references),"
        + " median of %d rounds after 2 of warm-up: %,.0f references/s, state %,d bytes%n", byVolume.size(), refs,
        perSecond.length, median(perSecond), state);
  }

  /** The median of {@code values} (the upper one of an even count); shared with PairedRounds. */
  static double median(double[] values) {
    double[] sorted = values.clone();
    java.util.Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  /** The agent's reference batches in {@code refs} (`tierwise-agent sample-refs`); shared with RecommendationBench. */
  static List<ReferenceBatchEvent> read(Path refs) throws Exception {
    ReferenceBatchParser parser = new ReferenceBatchParser();
    List<ReferenceBatchEvent> events = new ArrayList<>();
    try (InputStream in = Files.newInputStream(refs)) {
      ReferenceBatch b;
      while ((b = ReferenceBatch.parseDelimitedFrom(in)) != null) {
        events.add(parser.parse(TENANT, b));
      }
    }
    return events;
  }

  /** Wall seconds of the job over {@code volumes} copies of the events in a local MiniCluster. */
  private static double flinkRun(List<ReferenceBatchEvent> events, int volumes, int parallelism) throws Exception {
    List<ReferenceBatchEvent> all = new ArrayList<>();
    for (ReferenceBatchEvent e : events) {
      for (int v = 0; v < volumes; v++) {
        ReferenceBatchEvent c = copy(e);
        c.volumeId = "bench-" + v;
        all.add(c);
      }
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(parallelism);
    DataStream<ReferenceBatchEvent> stream = env.fromData(Types.POJO(ReferenceBatchEvent.class), all.toArray(new ReferenceBatchEvent[0]));
    // No measured latency: the function's second input stays empty.
    DataStream<VolumeLatency> latencies = stream.flatMap((ReferenceBatchEvent e, Collector<VolumeLatency> out) -> {}, Types.POJO(VolumeLatency.class));
    stream.keyBy(ReferenceBatchEvent::volumeKey, Types.STRING)
        .connect(latencies.keyBy(VolumeLatency::volumeKey, Types.STRING))
        .process(new WorkingSetFunction(1000, 1000, 30_000, 64, MrcEstimators.DEFAULT), Types.POJO(VolumeAnalysis.class))
        .addSink(new DiscardingSink<>());
    long start = System.nanoTime();
    env.execute("working-set bench, parallelism " + parallelism);
    return (System.nanoTime() - start) / 1e9;
  }

  private static ReferenceBatchEvent copy(ReferenceBatchEvent e) {
    ReferenceBatchEvent c = new ReferenceBatchEvent();
    c.tenantId = e.tenantId;
    c.hostId = e.hostId;
    c.batchId = e.batchId;
    c.sequence = e.sequence;
    c.samplingModulus = e.samplingModulus;
    c.samplingThreshold = e.samplingThreshold;
    c.baseTimeUnixNano = e.baseTimeUnixNano;
    c.blockHashes = e.blockHashes;
    c.writes = e.writes;
    c.lengthBlocks = e.lengthBlocks;
    c.timeOffsetsMicros = e.timeOffsetsMicros;
    c.consideredReferences = e.consideredReferences;
    c.distinctBlocksHllPrecision = e.distinctBlocksHllPrecision;
    c.distinctBlocksHllUpdates = e.distinctBlocksHllUpdates;
    return c;
  }

  private static MissRatioCurve exactMrc(Path agent, Path trace, long[] sizes) throws Exception {
    StringBuilder list = new StringBuilder();
    for (long s : sizes) {
      list.append(list.length() == 0 ? "" : ",").append(s / MissRatioCurve.MIB).append("MiB");
    }
    String json = run(null, agent.toString(), "mrc", trace.toString(), "--exact", "--sizes", list.toString());
    Matcher m = Pattern.compile("\"miss_ratio\":\\s*([0-9.eE+-]+)").matcher(json);
    double[] miss = new double[sizes.length];
    for (int i = 0; i < miss.length && m.find(); i++) {
      miss[i] = Double.parseDouble(m.group(1));
    }
    return new MissRatioCurve(sizes, miss);
  }

  /**
   * libCacheSim's LRU over its spatial sample of the block references (hash of the block mod 1/R),
   * at the sizes scaled by R: the miniature simulation of Waldspurger et al., USENIX ATC 2017
   * (cachesim samples but does not scale the sizes itself). Ratio 1: the full simulation.
   */
  private static void peerRun(String cachesim, Path csv, long[] sizes, double ratio, MissRatioCurve exact)
      throws Exception {
    StringBuilder list = new StringBuilder();
    for (long s : sizes) {
      list.append(list.length() == 0 ? "" : ",").append(Math.max(4096, Math.round(s * ratio / 4096) * 4096));
    }
    long start = System.nanoTime();
    String out = run(csv.getParent(), cachesim, csv.toString(), "csv", "lru", list.toString(), "--trace-type-params",
        "time-col=1,obj-id-col=2,obj-size-col=3,delimiter=,,has-header=false", "--sample-ratio",
        Double.toString(ratio), "--num-thread", "1");
    double ms = (System.nanoTime() - start) / 1e6;
    double[] miss = new double[sizes.length];
    Matcher m = Pattern.compile("cache size\\s+(\\d+)\\w*,?\\s.*?miss ratio\\s+([0-9.]+)").matcher(out);
    int found = 0;
    while (m.find() && found < sizes.length) {
      miss[found++] = Double.parseDouble(m.group(2));
    }
    if (found != sizes.length) {
      System.out.println("peer output not understood:\n" + out);
      return;
    }
    System.out.printf(Locale.ROOT, "libCacheSim lru, spatial sample %.2f: MAE %.4f, %,.0f ms (whole trace: read,"
        + " hash, sample, simulate %d sizes)%n", ratio, new MissRatioCurve(sizes, miss).meanAbsoluteError(exact), ms,
        sizes.length);
  }

  private static String run(Path workDir, String... command) throws Exception {
    ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true);
    if (workDir != null) {
      b.directory(workDir.toFile());
    }
    Process p = b.start();
    String out = new String(p.getInputStream().readAllBytes());
    if (p.waitFor() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed:\n" + out);
    }
    return out;
  }
}
