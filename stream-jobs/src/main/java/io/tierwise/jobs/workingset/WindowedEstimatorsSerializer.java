package io.tierwise.jobs.workingset;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Flink state serializer for {@link WindowedEstimators}: writes each estimator's sampled blocks,
 * distance histograms and counters in a compact binary form (no Kryo), and makes deep copies for
 * the heap state backend's copy-on-write snapshots.
 */
public final class WindowedEstimatorsSerializer extends BinaryStateSerializer<WindowedEstimators> {
  private static final long serialVersionUID = 1L;

  /** The only instance. */
  public static final WindowedEstimatorsSerializer INSTANCE = new WindowedEstimatorsSerializer();

  private WindowedEstimatorsSerializer() {}

  @Override
  void write(WindowedEstimators value, DataOutputView out) throws IOException {
    value.writeTo(out);
  }

  @Override
  WindowedEstimators read(DataInputView in) throws IOException {
    return WindowedEstimators.readFrom(in);
  }

  @Override
  WindowedEstimators deepCopy(WindowedEstimators value) {
    return value.copy();
  }

  @Override
  public TypeSerializerSnapshot<WindowedEstimators> snapshotConfiguration() {
    return new Snapshot();
  }

  /** Serializer snapshot; {@link WindowedEstimators} writes its own format version into the state. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<WindowedEstimators> {
    /** Used by Flink when restoring. */
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }
}
