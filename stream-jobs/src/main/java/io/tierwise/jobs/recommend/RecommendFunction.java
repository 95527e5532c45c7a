package io.tierwise.jobs.recommend;

import io.tierwise.jobs.workingset.estimate.WindowEstimate;
import java.util.Optional;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The recommendation step of the working-set job: each {@link WindowEstimate} the working-set
 * operators emit for the recommendation window (a volume's, keyed "tenant/volume", or a shared
 * tier's, keyed "tenant/cluster" or "tenant/host": {@link WindowEstimate#key}) goes through the
 * {@link TierRecommender}; the recommendation, stamped with the shared tier's id and volume count,
 * is emitted only when it changes materially from the last one emitted (DESIGN section 2:
 * "recommendations, emitted only when they change materially"; {@link
 * Recommendation#differsMateriallyFrom} by {@link TierRecommender#HOLD_HIT_RATIO_TOLERANCE}), and
 * nothing when the data cannot support one. Keyed state keeps the last one emitted ({@link
 * Recommendation#stateCopy}). A volume's recommendations have hysteresis ({@code hysteresis}):
 * that one is also the recommendation in force, which stays while its prediction holds; a shared
 * tier's is recommended afresh from each estimate.
 */
public class RecommendFunction extends KeyedProcessFunction<String, WindowEstimate, Recommendation> {
  private static final long serialVersionUID = 1L;

  private final boolean hysteresis;
  /** The last recommendation emitted (null: none yet). */
  private transient ValueState<Recommendation> lastEmitted;

  /** @param hysteresis whether the recommendation in force stays while its prediction holds (a volume's) */
  public RecommendFunction(boolean hysteresis) {
    this.hysteresis = hysteresis;
  }

  @Override
  public void open(OpenContext openContext) {
    // The name a volume's recommendation in force had as the only state of this operator.
    lastEmitted = getRuntimeContext().getState(
        new ValueStateDescriptor<>("held-recommendation", Types.POJO(Recommendation.class)));
  }

  @Override
  public void processElement(WindowEstimate estimate, Context ctx, Collector<Recommendation> out) throws Exception {
    Recommendation last = lastEmitted.value();
    Optional<Recommendation> changed = TierRecommender.recommendChange(TierRecommender.Input.of(estimate),
        hysteresis ? last : null, last);
    if (changed.isEmpty()) {
      return;
    }
    Recommendation r = changed.get();
    r.clusterId = estimate.clusterId;
    r.hostId = estimate.hostId;
    r.volumes = estimate.volumes;
    lastEmitted.update(r.stateCopy());
    out.collect(r);
  }
}
