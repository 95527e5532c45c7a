package io.tierwise.jobs.testing;

import io.tierwise.jobs.recommend.RecommendFunction;
import io.tierwise.jobs.recommend.Recommendation;
import io.tierwise.jobs.workingset.estimate.WindowEstimate;
import java.util.Collection;
import java.util.List;
import java.util.Queue;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;

/**
 * The working-set job's recommendation step ({@link RecommendFunction}, keyed as in the job) in
 * Flink's operator test harness, for tests of the operators before it: the recommendations of the
 * estimates they emitted.
 */
public final class RecommendStep {
  private RecommendStep() {}

  /** The values of a harness' side output, in order; empty when nothing was emitted on it. */
  public static <T> List<T> values(Queue<StreamRecord<T>> sideOutput) {
    return sideOutput == null ? List.of() : sideOutput.stream().map(StreamRecord::getValue).toList();
  }

  /**
   * The recommendations of {@code estimates} in order, through one {@link RecommendFunction}: those
   * that changed materially, as the job writes them.
   *
   * @param hysteresis a volume's step (the recommendation in force stays while its prediction holds)
   */
  public static List<Recommendation> of(Collection<WindowEstimate> estimates, boolean hysteresis) throws Exception {
    KeyedOneInputStreamOperatorTestHarness<String, WindowEstimate, Recommendation> h =
        ProcessFunctionTestHarnesses.forKeyedProcessFunction(new RecommendFunction(hysteresis), WindowEstimate::key,
            Types.STRING);
    try {
      for (WindowEstimate e : estimates) {
        h.processElement(e, 0);
      }
      return h.extractOutputValues();
    } finally {
      h.close();
    }
  }
}
