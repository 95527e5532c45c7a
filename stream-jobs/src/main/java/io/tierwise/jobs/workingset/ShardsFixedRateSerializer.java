package io.tierwise.jobs.workingset;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Flink state serializer for {@link ShardsFixedRate}: writes the sampled blocks' last access
 * times, the distance histogram and the counters in a compact binary form (no Kryo), and makes
 * deep copies for the heap state backend's copy-on-write snapshots.
 */
public final class ShardsFixedRateSerializer extends TypeSerializerSingleton<ShardsFixedRate> {
  private static final long serialVersionUID = 1L;

  /** The only instance. */
  public static final ShardsFixedRateSerializer INSTANCE = new ShardsFixedRateSerializer();

  private ShardsFixedRateSerializer() {}

  @Override
  public boolean isImmutableType() {
    return false;
  }

  @Override
  public ShardsFixedRate createInstance() {
    return null;
  }

  @Override
  public ShardsFixedRate copy(ShardsFixedRate from) {
    return from.copy();
  }

  @Override
  public ShardsFixedRate copy(ShardsFixedRate from, ShardsFixedRate reuse) {
    return from.copy();
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public void serialize(ShardsFixedRate record, DataOutputView target) throws IOException {
    record.writeTo(target);
  }

  @Override
  public ShardsFixedRate deserialize(DataInputView source) throws IOException {
    return ShardsFixedRate.readFrom(source);
  }

  @Override
  public ShardsFixedRate deserialize(ShardsFixedRate reuse, DataInputView source) throws IOException {
    return ShardsFixedRate.readFrom(source);
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    serialize(deserialize(source), target);
  }

  @Override
  public TypeSerializerSnapshot<ShardsFixedRate> snapshotConfiguration() {
    return new Snapshot();
  }

  /** Serializer snapshot; {@link ShardsFixedRate} writes its own format version into the state. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<ShardsFixedRate> {
    /** Used by Flink when restoring. */
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }
}
