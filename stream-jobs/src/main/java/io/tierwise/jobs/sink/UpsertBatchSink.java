package io.tierwise.jobs.sink;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.util.function.SerializableFunction;

/**
 * Batches the rows of a complete-value upsert sink ({@link PostgresSinks}) and keeps only the
 * newest row of each primary key in a batch: the rows carry complete values (a later row of a
 * key replaces an earlier one), so writing only the last is the same outcome, and a multi-row
 * {@code INSERT ... ON CONFLICT DO UPDATE} (pgjdbc's {@code reWriteBatchedInserts}) refuses a
 * key twice in one statement ("ON CONFLICT DO UPDATE command cannot affect row a second time").
 *
 * <p>A batch is handed to the wrapped sink, which must write only when told (no size or interval
 * of its own), when {@code batchRows} keys wait, {@code batchIntervalMillis} after the first
 * waiting row (a processing-time timer on the task thread), and at every checkpoint (Flink
 * flushes sink writers before a checkpoint, so a checkpoint never covers an unwritten row).
 *
 * @param <T> the row type
 */
public final class UpsertBatchSink<T> implements Sink<T> {
  private static final long serialVersionUID = 1L;

  private final Sink<T> inner;
  private final SerializableFunction<T, Object> primaryKey;
  private final int batchRows;
  private final long batchIntervalMillis;

  /**
   * @param inner the sink that writes; it must write only when flushed
   * @param primaryKey the row's primary key in its table (equal keys: the same row)
   * @param batchRows write when this many keys wait
   * @param batchIntervalMillis write at most this long after the first waiting row, ms
   */
  public UpsertBatchSink(Sink<T> inner, SerializableFunction<T, Object> primaryKey, int batchRows,
      long batchIntervalMillis) {
    this.inner = inner;
    this.primaryKey = primaryKey;
    this.batchRows = batchRows;
    this.batchIntervalMillis = batchIntervalMillis;
  }

  @Override
  public SinkWriter<T> createWriter(WriterInitContext context) throws IOException {
    return new Writer(inner.createWriter(context), context.getProcessingTimeService());
  }

  private final class Writer implements SinkWriter<T> {
    private final SinkWriter<T> delegate;
    private final ProcessingTimeService time;
    private final Map<Object, T> waiting = new LinkedHashMap<>();
    private boolean timerSet;

    Writer(SinkWriter<T> delegate, ProcessingTimeService time) {
      this.delegate = delegate;
      this.time = time;
    }

    @Override
    public void write(T row, Context context) throws IOException, InterruptedException {
      waiting.put(primaryKey.apply(row), row);
      if (waiting.size() >= batchRows) {
        writeBatch();
      } else if (!timerSet) {
        timerSet = true;
        time.registerTimer(time.getCurrentProcessingTime() + batchIntervalMillis, t -> {
          timerSet = false;
          writeBatch();
        });
      }
    }

    @Override
    public void flush(boolean endOfInput) throws IOException, InterruptedException {
      writeBatch();
    }

    private void writeBatch() throws IOException, InterruptedException {
      for (T row : waiting.values()) {
        delegate.write(row, NO_CONTEXT);
      }
      waiting.clear();
      delegate.flush(false);
    }

    @Override
    public void close() throws Exception {
      delegate.close();
    }
  }

  /** The wrapped sinks (JDBC, spans) read neither a record timestamp nor the watermark. */
  private static final SinkWriter.Context NO_CONTEXT = new SinkWriter.Context() {
    @Override
    public long currentWatermark() {
      return Long.MIN_VALUE;
    }

    @Override
    public Long timestamp() {
      return null;
    }
  };
}
