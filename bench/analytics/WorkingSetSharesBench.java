import io.tierwise.jobs.workingset.estimate.MrcEstimators;
import io.tierwise.jobs.workingset.estimate.WindowedEstimators;
import io.tierwise.jobs.workingset.pipeline.ReferenceBatchEvent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Paired rounds of a volume's working-set windows fed one batch at a time, as the working-set job
 * feeds them (docs/analytics.md "Windows on the agent"): simulating the batch's references
 * ({@link WindowedEstimators#reference}, the job's stack and panes) against adding the agent's
 * shares of them ({@link WindowedEstimators#addShares}), over every volume of the agent's batches
 * of a trace (each volume its own windows, LRU alone: the policies' simulations are the agent's
 * either way). Prints sampled references per second each way, the median per-round ratio, and the
 * windows' state bytes per volume each way. The windows' results are read once per volume at the
 * end (the job reads them per coarse write, the same for both ways).
 *
 * <p>Usage: java WorkingSetSharesBench REFS LABEL (REFS: `tierwise-agent sample-refs` output)
 */
public final class WorkingSetSharesBench {
  private static final int ROUNDS = 9;

  private WorkingSetSharesBench() {}

  public static void main(String[] args) throws Exception {
    Map<String, List<ReferenceBatchEvent>> volumes = new LinkedHashMap<>();
    for (ReferenceBatchEvent e : WorkingSetBench.read(Path.of(args[0]))) {
      volumes.computeIfAbsent(e.volumeId, v -> new ArrayList<>()).add(e);
    }
    long refs = volumes.values().stream().flatMap(List::stream).mapToLong(ReferenceBatchEvent::size).sum();
    long batches = volumes.values().stream().mapToLong(List::size).sum();
    System.out.printf(Locale.ROOT, "%s: %,d volumes, %,d batches, %,d sampled references%n", args[1], volumes.size(),
        batches, refs);
    long[] state = new long[2];
    PairedRounds r = PairedRounds.run(ROUNDS, () -> rate(volumes, refs, false, state), () -> rate(volumes, refs, true, state));
    System.out.println("  " + r.summary("references", "shares", "references/s"));
    System.out.printf(Locale.ROOT, "  windows' state per volume: %,d bytes simulating the references, %,d adding the shares%n",
        state[0] / volumes.size(), state[1] / volumes.size());
  }

  /** Sampled references per second of one pass over every volume; its state bytes go to {@code state}. */
  private static double rate(Map<String, List<ReferenceBatchEvent>> volumes, long refs, boolean shares, long[] state) {
    long bytes = 0;
    double digest = 0;
    long start = System.nanoTime();
    for (List<ReferenceBatchEvent> batches : volumes.values()) {
      ReferenceBatchEvent first = batches.get(0);
      WindowedEstimators w = new WindowedEstimators(MrcEstimators.DEFAULT, first.samplingModulus, first.samplingThreshold);
      for (ReferenceBatchEvent b : batches) {
        if (Long.compareUnsigned(b.samplingThreshold, w.threshold()) < 0) {
          w.lowerThreshold(b.samplingThreshold);
        }
        w.addStreamTotals(b.consideredReferences, b.distinctBlocksHllPrecision, b.distinctBlocksHllUpdates);
        w.addLruAnchor(b.lruAnchorHits, b.lruAnchorBlocks);
        if (shares) {
          w.addShares(b.workingSet);
        } else {
          for (int i = 0; i < b.size(); i++) {
            w.reference(b.blockHashes[i], b.writes[i], b.referenceTimeUnixNano(i));
          }
        }
      }
      for (WindowedEstimators.Result result : w.results()) {
        digest += result.estimator().workingSetBytes();
      }
      bytes += w.stateBytes();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    state[shares ? 1 : 0] = bytes;
    if (digest < 0) {
      throw new AssertionError("unreachable: keeps the results from being optimised away");
    }
    return refs / seconds;
  }
}
