package io.tierwise.jobs.workingset.estimate;

import java.io.IOException;
import java.io.Serializable;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Creates and (de)serialises {@link MrcEstimator}s by method name, so state can hold either kind.
 *
 * @param method {@link MrcEstimator#METHOD_FIXED_SIZE} or {@link MrcEstimator#METHOD_FIXED_RATE}
 * @param maxSamples {@code sMax} of fixed-size SHARDS (ignored by fixed rate)
 */
public record MrcEstimators(String method, int maxSamples) implements Serializable {
  /** The job's default: fixed-size SHARDS with {@link ShardsFixedSize#DEFAULT_MAX_SAMPLES}. */
  public static final MrcEstimators DEFAULT =
      new MrcEstimators(MrcEstimator.METHOD_FIXED_SIZE, ShardsFixedSize.DEFAULT_MAX_SAMPLES);

  /** @throws IllegalArgumentException for an unknown method or {@code maxSamples < 1} */
  public MrcEstimators {
    if (!method.equals(MrcEstimator.METHOD_FIXED_SIZE) && !method.equals(MrcEstimator.METHOD_FIXED_RATE)) {
      throw new IllegalArgumentException("unknown MRC method '" + method + "' (expected "
          + MrcEstimator.METHOD_FIXED_SIZE + " or " + MrcEstimator.METHOD_FIXED_RATE + ")");
    }
    if (maxSamples < 1) {
      throw new IllegalArgumentException("fixed-size SHARDS needs at least 1 sample, got " + maxSamples);
    }
  }

  /**
   * Whether the agent's shares of a working-set sample of {@code maxSamples} blocks ({@link
   * WindowShares}) are those of these estimators: fixed size, of that size.
   */
  public boolean takesShares(int maxSamples) {
    return method.equals(MrcEstimator.METHOD_FIXED_SIZE) && this.maxSamples == maxSamples;
  }

  /** An empty estimator for the agent's {@code P} and {@code T} (unsigned). */
  public ShardsEstimator create(long modulus, long threshold) {
    return method.equals(MrcEstimator.METHOD_FIXED_SIZE) ? new ShardsFixedSize(modulus, threshold, maxSamples)
        : new ShardsFixedRate(modulus, threshold);
  }

  /** Writes the estimator's state (its layout names the variant). */
  static void write(MrcEstimator e, DataOutputView out) throws IOException {
    e.writeTo(out);
  }

  /** Reads an estimator written by {@link #write}. */
  static ShardsEstimator read(DataInputView in) throws IOException {
    return ShardsEstimator.readFrom(in);
  }
}
