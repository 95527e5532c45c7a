package io.tierwise.jobs.workingset.estimate;

import io.tierwise.jobs.workingset.estimate.eviction.EvictionPolicy;
import java.io.IOException;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Every eviction policy's miss ratio less LRU's over a stream, by cache size: what a policy's curve
 * adds to a window's LRU curve ({@link WindowedEstimators#evictionMissRatio}). Either the service's
 * own miniature simulations of its mirrors ({@link MiniatureSimulations}: shared tiers, older
 * agents) or the agent's simulations of the engine, added up ({@link AgentSimulations}).
 */
public sealed interface PolicySimulations permits MiniatureSimulations, AgentSimulations {
  /**
   * The policy's miss ratio less LRU's at {@code cacheBytes}, all references or reads only: on a
   * simulated size its ratio of weighted misses; between two, interpolated linearly in the
   * logarithm of the size; below the first, the first size's; above the last, 0; 0 where a size
   * saw no reference ({@link EvictionDifferences#interpolate}).
   *
   * @throws IllegalArgumentException when the policy is not simulated or {@code cacheBytes < 1}
   */
  double difference(EvictionPolicy policy, long cacheBytes, boolean readsOnly);

  /** Every policy's difference from LRU at each simulated size, apart from the simulations. */
  EvictionDifferences differences();

  /** An independent deep copy. */
  PolicySimulations copy();

  /** Writes the state ({@link WindowedEstimators} tags which kind it is). */
  void writeTo(DataOutputView out) throws IOException;

  /** Bytes {@link #writeTo} writes. */
  long serializedBytes();
}
