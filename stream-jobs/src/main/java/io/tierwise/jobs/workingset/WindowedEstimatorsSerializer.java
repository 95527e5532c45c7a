package io.tierwise.jobs.workingset;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Flink state serializer for {@link WindowedEstimators}: writes each estimator's sampled blocks,
 * distance histograms and counters in a compact binary form (no Kryo), and makes deep copies for
 * the heap state backend's copy-on-write snapshots.
 */
public final class WindowedEstimatorsSerializer extends TypeSerializerSingleton<WindowedEstimators> {
  private static final long serialVersionUID = 1L;

  /** The only instance. */
  public static final WindowedEstimatorsSerializer INSTANCE = new WindowedEstimatorsSerializer();

  private WindowedEstimatorsSerializer() {}

  @Override
  public boolean isImmutableType() {
    return false;
  }

  @Override
  public WindowedEstimators createInstance() {
    return null;
  }

  @Override
  public WindowedEstimators copy(WindowedEstimators from) {
    return from.copy();
  }

  @Override
  public WindowedEstimators copy(WindowedEstimators from, WindowedEstimators reuse) {
    return from.copy();
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public void serialize(WindowedEstimators record, DataOutputView target) throws IOException {
    record.writeTo(target);
  }

  @Override
  public WindowedEstimators deserialize(DataInputView source) throws IOException {
    return WindowedEstimators.readFrom(source);
  }

  @Override
  public WindowedEstimators deserialize(WindowedEstimators reuse, DataInputView source) throws IOException {
    return WindowedEstimators.readFrom(source);
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    serialize(deserialize(source), target);
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
