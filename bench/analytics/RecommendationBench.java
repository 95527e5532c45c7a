import io.tierwise.jobs.recommend.Recommendation;
import io.tierwise.jobs.recommend.TierRecommender;
import io.tierwise.jobs.workingset.estimate.IoProfile;
import io.tierwise.jobs.workingset.estimate.MrcEstimators;
import io.tierwise.jobs.workingset.estimate.ShardsEstimator;
import io.tierwise.jobs.workingset.estimate.WindowEstimate;
import io.tierwise.jobs.workingset.estimate.WindowedEstimators;
import io.tierwise.jobs.workingset.pipeline.ReferenceBatchEvent;
import io.tierwise.jobs.workingset.pipeline.VolumeAnalysis;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The working-set job's recommendation step on one volume's real estimates, two ways in one JVM,
 * paired rounds: every estimate recommended and described (inputs document and explanation), then
 * dropped unless it changed materially (the step before 6985b58: {@code TierRecommender.recommend}
 * and the change filter after it), against the decision first and a description only for a
 * material change ({@code TierRecommender.recommendChange}, the step since). The estimates are the
 * recommendation window's after every {@value #REFERENCES_PER_ESTIMATE} sampled references of the
 * trace, as {@code WorkingSetFunction} makes them (every eviction policy simulated); both ways must
 * pass on the same recommendations, or the bench fails.
 *
 * Usage: bench/analytics/recommendation-step.sh (compiled with WorkingSetBench.java, whose reader it uses)
 */
public class RecommendationBench {
  private static final String TENANT = "00000000-0000-0000-0000-0000000be7c4";
  private static final int ROUNDS = 15;
  /**
   * An estimate after this many sampled references: the agent's batches of a busy volume are
   * full (thousands of references), and the job makes an estimate at each coarse write, between
   * which a small volume sends a few hundred.
   */
  private static final int REFERENCES_PER_ESTIMATE = 500;

  public static void main(String[] args) throws Exception {
    List<WindowEstimate> estimates = estimates(WorkingSetBench.read(Path.of(args[0])));
    List<String> before = run(estimates, false);
    List<String> after = run(estimates, true);
    if (!before.equals(after)) {
      throw new AssertionError("the two ways passed on different recommendations:\n" + before + "\n" + after);
    }
    PairedRounds rounds = PairedRounds.run(ROUNDS, () -> perSecond(estimates, false), () -> perSecond(estimates, true));
    System.out.printf(Locale.ROOT, "recommendation step, %d estimates of one volume, %d passed on; %s%n", estimates.size(),
        before.size(), rounds.summary("described each time", "only on a material change", "estimates/s"));
  }

  /** The recommendations passed on, one way or the other, as "bytes media policy eviction hit ratio". */
  private static List<String> run(List<WindowEstimate> estimates, boolean onChange) {
    List<String> passed = new ArrayList<>();
    Recommendation last = null;
    for (WindowEstimate e : estimates) {
      Recommendation r = step(e, last, onChange);
      if (r != null) {
        last = r.stateCopy();
        passed.add(r.tierBytes + " " + r.media + " " + r.policy + " " + r.eviction + " " + r.predictedHitRatio);
      }
    }
    return passed;
  }

  private static double perSecond(List<WindowEstimate> estimates, boolean onChange) {
    long start = System.nanoTime();
    run(estimates, onChange);
    return estimates.size() / ((System.nanoTime() - start) / 1e9);
  }

  /** One estimate through the step: the recommendation passed on, or null. */
  private static Recommendation step(WindowEstimate e, Recommendation last, boolean onChange) {
    TierRecommender.Input in = TierRecommender.Input.of(e);
    if (onChange) {
      return TierRecommender.recommendChange(in, last, last).orElse(null);
    }
    Optional<Recommendation> r = TierRecommender.recommend(in, last);
    return r.isPresent() && r.get().differsMateriallyFrom(last, TierRecommender.HOLD_HIT_RATIO_TOLERANCE)
        ? r.get() : null;
  }

  /** The recommendation window's estimate after each batch, as WorkingSetFunction feeds its state. */
  private static List<WindowEstimate> estimates(List<ReferenceBatchEvent> events) {
    ReferenceBatchEvent first = events.get(0);
    WindowedEstimators w = WindowedEstimators.withPolicies(MrcEstimators.DEFAULT, first.samplingModulus,
        first.samplingThreshold);
    IoProfile io = new IoProfile();
    List<WindowEstimate> out = new ArrayList<>();
    for (ReferenceBatchEvent b : events) {
      if (Long.compareUnsigned(b.samplingThreshold, w.threshold()) < 0) {
        w.lowerThreshold(b.samplingThreshold);
      }
      w.addStreamTotals(b.consideredReferences, b.distinctBlocksHllPrecision, b.distinctBlocksHllUpdates);
      double rate = ShardsEstimator.samplingRate(b.samplingModulus, b.samplingThreshold);
      for (int i = 0; i < b.size(); i++) {
        long time = b.referenceTimeUnixNano(i);
        w.reference(b.blockHashes[i], b.writes[i], time);
        io.add(b.writes[i], b.lengthBlocks[i], rate, time);
        if ((i + 1) % REFERENCES_PER_ESTIMATE == 0 || i == b.size() - 1) {
          out.add(estimate(w, io));
        }
      }
    }
    return out;
  }

  private static WindowEstimate estimate(WindowedEstimators w, IoProfile io) {
    for (WindowedEstimators.Result r : w.results()) {
      if (r.window().equals(VolumeAnalysis.RECOMMENDATION_WINDOW)) {
        WindowEstimate e = WindowEstimate.of(r.window(), r.estimator(), io, w);
        e.tenantId = TENANT;
        e.volumeId = "bench";
        return e;
      }
    }
    throw new IllegalStateException("no " + VolumeAnalysis.RECOMMENDATION_WINDOW + " window");
  }
}
