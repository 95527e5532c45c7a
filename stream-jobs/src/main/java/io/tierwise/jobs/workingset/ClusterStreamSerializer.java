package io.tierwise.jobs.workingset;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/** Flink state serializer for {@link ClusterStream} (its own binary format, no Kryo). */
public final class ClusterStreamSerializer extends BinaryStateSerializer<ClusterStream> {
  private static final long serialVersionUID = 1L;

  /** The only instance. */
  public static final ClusterStreamSerializer INSTANCE = new ClusterStreamSerializer();

  private ClusterStreamSerializer() {}

  @Override
  void write(ClusterStream value, DataOutputView out) throws IOException {
    value.writeTo(out);
  }

  @Override
  ClusterStream read(DataInputView in) throws IOException {
    return ClusterStream.readFrom(in);
  }

  @Override
  ClusterStream deepCopy(ClusterStream value) {
    return value.copy();
  }

  @Override
  public TypeSerializerSnapshot<ClusterStream> snapshotConfiguration() {
    return new Snapshot();
  }

  /** Serializer snapshot; {@link ClusterStream} writes its own format version into the state. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<ClusterStream> {
    /** Used by Flink when restoring. */
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }
}
