package io.tierwise.jobs.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class UpsertBatchSinkTest {
  /** What the wrapped sink was told, in order: "write k=v" and "flush". */
  private static final List<String> EVENTS = new ArrayList<>();
  private final List<ProcessingTimeService.ProcessingTimeCallback> timers = new ArrayList<>();
  private SinkWriter<String> writer;

  /** Writes nothing itself: records what it is told. */
  private static final class RecordingSink implements Sink<String> {
    @Override
    public SinkWriter<String> createWriter(WriterInitContext context) {
      return new SinkWriter<>() {
        @Override
        public void write(String row, Context c) {
          EVENTS.add("write " + row);
        }

        @Override
        public void flush(boolean endOfInput) {
          EVENTS.add("flush");
        }

        @Override
        public void close() {}
      };
    }
  }

  @BeforeEach
  void open() throws Exception {
    EVENTS.clear();
    ProcessingTimeService time = (ProcessingTimeService) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {ProcessingTimeService.class}, (proxy, method, args) -> switch (method.getName()) {
          case "getCurrentProcessingTime" -> 0L;
          case "registerTimer" -> {
            timers.add((ProcessingTimeService.ProcessingTimeCallback) args[1]);
            yield (ScheduledFuture<?>) null;
          }
          default -> throw new UnsupportedOperationException(method.getName());
        });
    WriterInitContext context = (WriterInitContext) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {WriterInitContext.class}, (proxy, method, args) -> {
          if (method.getName().equals("getProcessingTimeService")) {
            return time;
          }
          throw new UnsupportedOperationException(method.getName());
        });
    // Rows "key=value"; a batch of at most 3 keys.
    writer = new UpsertBatchSink<String>(new RecordingSink(), row -> row.split("=")[0], 3, 200).createWriter(context);
  }

  private void write(String... rows) throws Exception {
    for (String row : rows) {
      writer.write(row, null);
    }
  }

  @Test
  void writesTheNewestRowOfEachKeyOnceAtTheCheckpointFlush() throws Exception {
    write("a=1", "b=1", "a=2");
    assertThat(EVENTS).as("nothing before the batch is full, due or checkpointed").isEmpty();
    writer.flush(false);
    assertThat(EVENTS).containsExactly("write a=2", "write b=1", "flush");
  }

  @Test
  void writesABatchWhenItHoldsBatchRowsKeysAndOnItsTimer() throws Exception {
    write("a=1", "a=2", "a=3", "b=1");
    assertThat(EVENTS).as("two keys of three").isEmpty();
    write("c=1");
    assertThat(EVENTS).containsExactly("write a=3", "write b=1", "write c=1", "flush");
    EVENTS.clear();
    write("d=1");
    assertThat(timers).hasSize(1);
    timers.get(0).onProcessingTime(200);
    assertThat(EVENTS).containsExactly("write d=1", "flush");
  }
}
