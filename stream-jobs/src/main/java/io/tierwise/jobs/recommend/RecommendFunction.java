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
 * is emitted, nothing when the data cannot support one. A volume's recommendations have
 * hysteresis ({@code hysteresis}): the recommendation in force, the last one that changed
 * materially ({@link Recommendation#differsMateriallyFrom} by {@link
 * TierRecommender#HOLD_HIT_RATIO_TOLERANCE}), is kept in keyed state and stays while its prediction
 * holds; a shared tier's is recommended afresh from each estimate, and keeps no state.
 * {@link RecommendationChangeFilter} follows it.
 */
public class RecommendFunction extends KeyedProcessFunction<String, WindowEstimate, Recommendation> {
  private static final long serialVersionUID = 1L;

  private final boolean hysteresis;
  /** The recommendation in force (null: none yet); only with hysteresis. */
  private transient ValueState<Recommendation> held;

  /** @param hysteresis whether the recommendation in force stays while its prediction holds (a volume's) */
  public RecommendFunction(boolean hysteresis) {
    this.hysteresis = hysteresis;
  }

  @Override
  public void open(OpenContext openContext) {
    if (hysteresis) {
      held = getRuntimeContext().getState(
          new ValueStateDescriptor<>("held-recommendation", Types.POJO(Recommendation.class)));
    }
  }

  @Override
  public void processElement(WindowEstimate estimate, Context ctx, Collector<Recommendation> out) throws Exception {
    Recommendation inForce = hysteresis ? held.value() : null;
    Optional<Recommendation> recommended = TierRecommender.recommend(TierRecommender.Input.of(estimate), inForce);
    if (recommended.isEmpty()) {
      return;
    }
    Recommendation r = recommended.get();
    r.clusterId = estimate.clusterId;
    r.hostId = estimate.hostId;
    r.volumes = estimate.volumes;
    if (hysteresis && r.differsMateriallyFrom(inForce, TierRecommender.HOLD_HIT_RATIO_TOLERANCE)) {
      held.update(r.stateCopy());
    }
    out.collect(r);
  }
}
