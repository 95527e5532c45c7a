package io.tierwise.jobs.testing;

import io.tierwise.jobs.workingset.MissRatioCurve;
import io.tierwise.proto.v1.ReferenceBatch;
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
}
