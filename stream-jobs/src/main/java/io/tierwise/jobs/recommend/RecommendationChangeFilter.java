package io.tierwise.jobs.recommend;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Passes a volume's recommendation on only when it changes materially from the last one passed
 * (DESIGN section 2: "recommendations, emitted only when they change materially"): another tier
 * size, media or policy, or a predicted hit ratio that moved by more than
 * {@code hitRatioTolerance}. Keyed by "tenant/volume"; keeps the last recommendation passed.
 */
public class RecommendationChangeFilter extends KeyedProcessFunction<String, Recommendation, Recommendation> {
  private static final long serialVersionUID = 1L;

  private final double hitRatioTolerance;
  private transient ValueState<Recommendation> lastPassed;

  /** @param hitRatioTolerance largest move of the predicted hit ratio that is not material (0.02) */
  public RecommendationChangeFilter(double hitRatioTolerance) {
    this.hitRatioTolerance = hitRatioTolerance;
  }

  @Override
  public void open(OpenContext openContext) {
    lastPassed = getRuntimeContext().getState(
        new ValueStateDescriptor<>("last-recommendation", Types.POJO(Recommendation.class)));
  }

  @Override
  public void processElement(Recommendation r, Context ctx, Collector<Recommendation> out) throws Exception {
    if (r.differsMateriallyFrom(lastPassed.value(), hitRatioTolerance)) {
      lastPassed.update(r.stateCopy());
      out.collect(r);
    }
  }
}
