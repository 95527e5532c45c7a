package io.tierwise.jobs.workingset.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.tierwise.jobs.workingset.estimate.BinaryStateSerializer;
import io.tierwise.jobs.workingset.estimate.MrcEstimators;
import io.tierwise.jobs.workingset.estimate.WindowedEstimators;
import io.tierwise.jobs.workingset.estimate.WindowedEstimatorsSerializer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputViewStreamWrapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The working-set job's two keyed states through their Flink serializers: a checkpoint's
 * serializer snapshot restores the same serializer under the class name checkpoints and
 * savepoints record, and a state (estimators with references, a cluster with a queued batch)
 * survives the round trip and the copies the heap backend makes: the same working sets and MRCs
 * (after releasing the queued references, for a cluster). The bytes themselves need not repeat
 * (the LRU stack is written in hash order).
 */
class BinaryStateSerializerTest {
  private static final long SECOND = 1_000_000_000L;

  static Stream<Arguments> states() {
    WindowedEstimators windows = new WindowedEstimators(MrcEstimators.DEFAULT, 1, 1);
    for (long t = 0; t < 2 * 3600; t += 7) {
      windows.reference(t % 1000, t % 3 == 0, 1_700_000_000L * SECOND + t * SECOND);
    }
    ClusterStream cluster = new ClusterStream(MrcEstimators.DEFAULT);
    cluster.offer(ClusterStreamTest.batch("v1", 1 << 24, 1_000, 5_000), 0);
    cluster.offer(ClusterStreamTest.batch("v2", 1 << 24, 3_000), 0);
    cluster.release(cluster.watermark(0, 1));
    Function<WindowedEstimators, String> windowsSeen = BinaryStateSerializerTest::observable;
    Function<ClusterStream, String> clusterSeen = c -> {
      c.release(Long.MAX_VALUE);
      return c.volumeIds() + " " + observable(c.estimators());
    };
    return Stream.of(
        arguments(WindowedEstimatorsSerializer.INSTANCE, windows, windowsSeen,
            "io.tierwise.jobs.workingset.estimate.WindowedEstimatorsSerializer$Snapshot"),
        arguments(ClusterStreamSerializer.INSTANCE, cluster, clusterSeen,
            "io.tierwise.jobs.workingset.pipeline.ClusterStreamSerializer$Snapshot"));
  }

  /** What the job writes of each window: its start, references, working sets and MRC. */
  private static String observable(WindowedEstimators w) {
    long[] sizes = {4096, 1 << 20, 4 << 20};
    return w.results().stream().map(r -> r.window() + "@" + r.startUnixNano() + ": " + r.estimator().references()
        + " refs, WSS " + r.estimator().workingSetBytes() + "/" + r.estimator().readWorkingSetBytes() + "/"
        + r.estimator().writeWorkingSetBytes() + " " + r.estimator().missRatioCurve(sizes))
        .collect(Collectors.joining("; "));
  }

  @ParameterizedTest
  @MethodSource("states")
  <T extends BinaryStateSerializer.State<T>> void snapshotRestoresTheSameSerializer(BinaryStateSerializer<T> serializer,
      T state, Function<T, String> observable, String snapshotClass) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(64);
    TypeSerializerSnapshot.writeVersionedSnapshot(out, serializer.snapshotConfiguration());
    TypeSerializerSnapshot<T> restored = TypeSerializerSnapshot.readVersionedSnapshot(
        new DataInputDeserializer(out.getCopyOfBuffer()), getClass().getClassLoader());
    assertThat(restored.getClass().getName()).as("the class name a savepoint holds").isEqualTo(snapshotClass);
    assertThat(restored.restoreSerializer()).isSameAs(serializer);
    assertThat(serializer.snapshotConfiguration().resolveSchemaCompatibility(restored).isCompatibleAsIs()).isTrue();
  }

  @ParameterizedTest
  @MethodSource("states")
  <T extends BinaryStateSerializer.State<T>> void stateSurvivesTheRoundTripAndTheCopies(
      BinaryStateSerializer<T> serializer, T state, Function<T, String> observable, String snapshotClass)
      throws IOException {
    byte[] written = bytes(serializer, state);
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    serializer.serialize(state, new DataOutputViewStreamWrapper(stream));
    assertThat(stream.toByteArray()).as("the same bytes through a stream (a checkpoint's)").isEqualTo(written);
    T restored = serializer.deserialize(new DataInputDeserializer(written));
    T copy = serializer.copy(state);
    assertThat(copy).isNotSameAs(state);
    DataOutputSerializer copied = new DataOutputSerializer(written.length);
    serializer.copy(new DataInputDeserializer(written), copied);
    T fromCopiedBytes = serializer.deserialize(new DataInputDeserializer(copied.getCopyOfBuffer()));
    String expected = observable.apply(state);
    assertThat(expected).as("a state with references").contains("all@").doesNotContain(": 0 refs");
    assertThat(observable.apply(restored)).isEqualTo(expected);
    assertThat(observable.apply(copy)).isEqualTo(expected);
    assertThat(observable.apply(fromCopiedBytes)).isEqualTo(expected);
  }

  private static <T extends BinaryStateSerializer.State<T>> byte[] bytes(BinaryStateSerializer<T> serializer, T state)
      throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(1 << 12);
    serializer.serialize(state, out);
    return out.getCopyOfBuffer();
  }
}
