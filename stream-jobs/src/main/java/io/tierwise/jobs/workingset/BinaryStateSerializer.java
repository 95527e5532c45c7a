package io.tierwise.jobs.workingset;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Flink state serializer of a mutable value that writes its own compact binary form (no Kryo)
 * with its own format version, and makes deep copies for the heap state backend's copy-on-write
 * snapshots. Subclasses name the three operations.
 *
 * @param <T> the state's type
 */
abstract class BinaryStateSerializer<T> extends TypeSerializerSingleton<T> {
  private static final long serialVersionUID = 1L;

  /** Writes {@code value} (never null). */
  abstract void write(T value, DataOutputView out) throws IOException;

  /** Reads a value written by {@link #write}; {@link IOException} for an inconsistent state. */
  abstract T read(DataInputView in) throws IOException;

  /** A deep copy. */
  abstract T deepCopy(T value);

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
    return deepCopy(from);
  }

  @Override
  public T copy(T from, T reuse) {
    return deepCopy(from);
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public void serialize(T record, DataOutputView target) throws IOException {
    write(record, target);
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
