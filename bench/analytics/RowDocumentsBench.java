import io.tierwise.jobs.json.Json;
import io.tierwise.jobs.json.JsonTrees;
import io.tierwise.jobs.metrics.IntervalMetrics;
import io.tierwise.jobs.metrics.OtlpMetricsParser;
import io.tierwise.jobs.workingset.estimate.MissRatioCurve;
import io.tierwise.jobs.workingset.estimate.eviction.EvictionPolicy;
import io.tierwise.proto.v1.IngestRecord;
import com.google.protobuf.ByteString;
import java.io.DataInputStream;
import java.io.FileInputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Paired rounds of the rollup rows' JSON documents on the real agent's intervals of one trace: the
 * four documents of a volume's 10 s row (latency, sources, workload, cpu) for every interval,
 * written straight to text ({@link Json}) and built as a Jackson tree then written ({@link
 * JsonTrees}, the way before). Both must give the same text. Prints intervals per second each way
 * and the median per-round ratio. Then the same for an MRC row's two documents (points and every
 * policy's eviction points on the size grid of a 1 GiB working set; the ratios random
 * doubles, as a curve's are), rows per second.
 *
 * <p>Usage: java RowDocumentsBench METRICS (length-prefixed OTLP request bodies, row-documents.sh)
 */
public final class RowDocumentsBench {
  private static final int ROUNDS = 15;
  private static final int PASSES = 20;
  private static final int MRC_ROWS = 20_000;
  /** The policies as an MRC row names them (VolumeAnalysis). */
  private static final String[] EVICTIONS =
      Arrays.stream(EvictionPolicy.values()).map(EvictionPolicy::serviceName).toArray(String[]::new);

  private RowDocumentsBench() {}

  public static void main(String[] args) throws Exception {
    List<IntervalMetrics> intervals = new ArrayList<>();
    try (DataInputStream in = new DataInputStream(new FileInputStream(args[0]))) {
      OtlpMetricsParser parser = new OtlpMetricsParser();
      while (in.available() > 0) {
        byte[] body = in.readNBytes(in.readInt());
        intervals.addAll(parser.parse(IngestRecord.newBuilder().setTenantId("3f2a0c1e-8a4b-4c1d-9e2f-0123456789ab")
            .setBatchId("bench#" + intervals.size()).setPayload(ByteString.copyFrom(body)).build()));
      }
    }
    long bytes = 0;
    for (IntervalMetrics m : intervals) {
      String streamed = streamed(m);
      if (!streamed.equals(trees(m))) {
        throw new IllegalStateException("the two ways differ at the interval starting at " + m.intervalStartUnixNano);
      }
      bytes += streamed.length();
    }
    PairedRounds rounds = PairedRounds.run(ROUNDS, () -> rate(intervals, false), () -> rate(intervals, true));
    System.out.printf(Locale.ROOT, "row documents, %d intervals of the real agent, %d bytes of JSON per interval; %s%n",
        intervals.size(), bytes / intervals.size(), rounds.summary("tree then text", "straight to text", "intervals/s"));
    long[] sizes = MissRatioCurve.cacheSizeGrid(1L << 30);
    double[][] curves = new double[EVICTIONS.length][sizes.length];
    Random random = new Random(1);
    for (double[] curve : curves) {
      for (int i = 0; i < sizes.length; i++) {
        curve[i] = random.nextDouble();
      }
    }
    String mrc = mrcStreamed(sizes, curves);
    if (!mrc.equals(mrcTrees(sizes, curves))) {
      throw new IllegalStateException("the two ways differ for the MRC documents");
    }
    PairedRounds mrcRounds = PairedRounds.run(ROUNDS, () -> mrcRate(sizes, curves, false), () -> mrcRate(sizes, curves, true));
    System.out.printf(Locale.ROOT, "MRC row documents, %d sizes, %d bytes of JSON per row; %s%n", sizes.length, mrc.length(),
        mrcRounds.summary("tree then text", "straight to text", "rows/s"));
  }

  private static String mrcStreamed(long[] sizes, double[][] curves) {
    return Json.mrcPoints(sizes, curves[0]) + Json.evictionPoints(sizes, EVICTIONS, curves);
  }

  private static String mrcTrees(long[] sizes, double[][] curves) {
    return Json.text(JsonTrees.mrcPoints(sizes, curves[0])) + Json.text(JsonTrees.evictionPoints(sizes, EVICTIONS, curves));
  }

  /** MRC rows per second over {@link #MRC_ROWS} rows, one way. */
  private static double mrcRate(long[] sizes, double[][] curves, boolean straight) {
    long sink = 0;
    long start = System.nanoTime();
    for (int row = 0; row < MRC_ROWS; row++) {
      sink += straight ? mrcStreamed(sizes, curves).length() : mrcTrees(sizes, curves).length();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    if (sink == 0) {
      throw new IllegalStateException("no documents");
    }
    return MRC_ROWS / seconds;
  }

  private static String streamed(IntervalMetrics m) {
    return Json.latency(m.latency) + Json.sources(m.sources) + Json.workload(m.workload) + Json.cpu(m.cpu);
  }

  private static String trees(IntervalMetrics m) {
    return Json.text(JsonTrees.latency(m.latency)) + Json.text(JsonTrees.sources(m.sources))
        + Json.text(JsonTrees.workload(m.workload)) + Json.text(JsonTrees.cpu(m.cpu));
  }

  /** Intervals per second over {@link #PASSES} passes, one way. */
  private static double rate(List<IntervalMetrics> intervals, boolean straight) {
    long sink = 0;
    long start = System.nanoTime();
    for (int pass = 0; pass < PASSES; pass++) {
      for (IntervalMetrics m : intervals) {
        sink += straight ? streamed(m).length() : trees(m).length();
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    if (sink == 0) {
      throw new IllegalStateException("no documents");
    }
    return PASSES * intervals.size() / seconds;
  }
}
