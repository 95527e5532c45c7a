package io.tierwise.jobs.testing;

import io.tierwise.jobs.workingset.estimate.MissRatioCurve;
import io.tierwise.proto.v1.ReferenceBatch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Where the accuracy test gets sampled references and the exact MRC of a trace from. */
public interface ReferenceSource {
  /** A short name for the test output. */
  String name();

  /** The SHARDS-sampled reference batches of the trace under a 128-bit key (32 hex digits). */
  List<ReferenceBatch> sample(Path trace, String keyHex, double rate) throws Exception;

  /** The exact LRU MRC of the trace at the given sizes (bytes, increasing). */
  MissRatioCurve exactMrc(Path trace, long[] cacheBytes) throws Exception;

  /**
   * The edge agent's own sampler and exact MRC (edge-agent/build/tierwise-agent); without the
   * binary, the test-scope stand-in with a warning, except under CI, where the accuracy tests
   * need the agent.
   *
   * @throws AssertionError under CI when the agent is not built
   */
  static ReferenceSource agentOrStandIn() {
    Path agent = AgentReferenceSource.defaultBinary();
    if (Files.isExecutable(agent)) {
      return new AgentReferenceSource(agent);
    }
    if (Repo.isCi()) {
      throw new AssertionError(agent + " does not exist: the accuracy tests need the edge agent's sampler and"
          + " exact MRC. Build it first (npm run -w @tierwise/edge-agent build).");
    }
    System.out.println("WARNING: " + agent + " not found; using the test-scope stand-in (CI=true fails instead)");
    return new LocalReferenceSource();
  }
}
