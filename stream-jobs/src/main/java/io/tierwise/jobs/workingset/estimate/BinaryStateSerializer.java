package io.tierwise.jobs.workingset.estimate;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Flink state serializer of a mutable {@link State}: the value writes its own compact binary form
 * (no Kryo) with its own format version, and makes the deep copies the heap state backend's
 * copy-on-write snapshots need. A subclass names how to read the value back and its serializer
 * snapshot (whose class name Flink records in checkpoints and savepoints, so it stays put).
 *
 * @param <T> the state's type
 */
public abstract class BinaryStateSerializer<T extends BinaryStateSerializer.State<T>> extends TypeSerializerSingleton<T> {
  private static final long serialVersionUID = 1L;
  /** {@link #serialize}'s first buffer; it doubles as the value needs. */
  private static final int FIRST_BUFFER_BYTES = 1 << 12;

  /** A value that writes its own state and copies itself. */
  public interface State<T> {
    /** Writes the state, format version first (never null). */
    void writeTo(DataOutputView out) throws IOException;

    /** An independent deep copy. */
    T copy();
  }

  /** Reads a value written by {@link State#writeTo}; {@link IOException} for an inconsistent state. */
  protected abstract T read(DataInputView in) throws IOException;

  @Override
  public boolean isImmutableType() {
    return false;
  }

  @Override
  public T createInstance() {
    return null;
  }

  @Override
  public T copy(T from) {
    return from.copy();
  }

  @Override
  public T copy(T from, T reuse) {
    return from.copy();
  }

  @Override
  public int getLength() {
    return -1;
  }

  /**
   * Writes the value in one bulk write: its many small writes (a state is mostly longs, hundreds of
   * KB of them) go to a heap buffer first, not each through a checkpoint stream's wrappers.
   */
  @Override
  public void serialize(T record, DataOutputView target) throws IOException {
    if (target instanceof DataOutputSerializer) {
      record.writeTo(target);
      return;
    }
    DataOutputSerializer buffer = new DataOutputSerializer(FIRST_BUFFER_BYTES);
    record.writeTo(buffer);
    target.write(buffer.getSharedBuffer(), 0, buffer.length());
  }

  @Override
  public T deserialize(DataInputView source) throws IOException {
    return read(source);
  }

  @Override
  public T deserialize(T reuse, DataInputView source) throws IOException {
    return read(source);
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    serialize(deserialize(source), target);
  }
}
