package io.tierwise.jobs.workingset.pipeline;

import io.tierwise.jobs.workingset.estimate.BinaryStateSerializer;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;

/** Flink state serializer for {@link ClusterStream} (its own binary format, no Kryo). */
public final class ClusterStreamSerializer extends BinaryStateSerializer<ClusterStream> {
  private static final long serialVersionUID = 1L;

  /** The only instance. */
  public static final ClusterStreamSerializer INSTANCE = new ClusterStreamSerializer();

  private ClusterStreamSerializer() {}

  @Override
  protected ClusterStream read(DataInputView in) throws IOException {
    return ClusterStream.readFrom(in);
  }

  @Override
  public TypeSerializerSnapshot<ClusterStream> snapshotConfiguration() {
    return new Snapshot();
  }

  /** Serializer snapshot (Flink restores it by this class name); the format version is in the state. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<ClusterStream> {
    /** Used by Flink when restoring. */
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }
}
