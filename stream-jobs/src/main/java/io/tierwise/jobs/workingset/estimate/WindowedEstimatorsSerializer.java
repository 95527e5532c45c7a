package io.tierwise.jobs.workingset.estimate;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;

/**
 * Flink state serializer for {@link WindowedEstimators}: each estimator's sampled blocks, distance
 * histograms and counters in a compact binary form (no Kryo); deep copies for the heap state
 * backend's copy-on-write snapshots.
 */
public final class WindowedEstimatorsSerializer extends BinaryStateSerializer<WindowedEstimators> {
  private static final long serialVersionUID = 1L;

  /** The only instance. */
  public static final WindowedEstimatorsSerializer INSTANCE = new WindowedEstimatorsSerializer();

  private WindowedEstimatorsSerializer() {}

  @Override
  protected WindowedEstimators read(DataInputView in) throws IOException {
    return WindowedEstimators.readFrom(in);
  }

  @Override
  public TypeSerializerSnapshot<WindowedEstimators> snapshotConfiguration() {
    return new Snapshot();
  }

  /** Serializer snapshot (Flink restores it by this class name); the format version is in the state. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<WindowedEstimators> {
    /** Used by Flink when restoring. */
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }
}
