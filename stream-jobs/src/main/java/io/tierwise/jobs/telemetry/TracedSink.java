package io.tierwise.jobs.telemetry;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.util.function.SerializableFunction;

/**
 * A batched sink (the JDBC sink of {@code PostgresSinks}) whose every flush, one batched
 * statement execution, is a CLIENT span "INSERT &lt;table&gt;" (OpenTelemetry database semantic
 * conventions: db.system.name, db.collection.name, db.operation.name, db.operation.batch.size)
 * related to the consume span of every Kafka record whose results the batch writes.
 *
 * <p>Fan-in: a written row aggregates many records (an interval's value is the sum of its
 * batches, a flush writes many volumes) and a span has one parent, so the OpenTelemetry
 * specification's answer is links ("Links between spans", batch processing). The write span
 * links to every consume span of its batch (up to {@value #MAX_LINKS}), and takes the oldest one
 * as its parent: then the trace of that batch reaches the database write (ingest's request and
 * publish spans, the jobs' consume span as the publish span's child, the write span), while the
 * other batches of the same write find it through their link.
 *
 * <p>Every execution is spanned because the wrapped sink writes only when flushed (no size or
 * interval of its own): the batching is the caller's ({@code UpsertBatchSink}), which flushes
 * this sink once per batch.
 *
 * @param <T> the row type
 */
public final class TracedSink<T> implements Sink<T> {
  private static final long serialVersionUID = 1L;
  /**
   * Most links one span carries, and the SDK's span link limit ({@link JobTelemetry} raises the
   * default 128 to it): a flush of the sinks holds up to 1,000 rows (PostgresSinks), and a
   * volume_metrics_10s row derives from one batch, so every batch of such a write finds it
   * (docs/observability.md "Parent or links").
   */
  static final int MAX_LINKS = 1024;
  private static final AttributeKey<String> DB_SYSTEM = AttributeKey.stringKey("db.system.name");
  private static final AttributeKey<String> DB_COLLECTION = AttributeKey.stringKey("db.collection.name");
  private static final AttributeKey<String> DB_OPERATION = AttributeKey.stringKey("db.operation.name");
  private static final AttributeKey<Long> DB_BATCH_SIZE = AttributeKey.longKey("db.operation.batch.size");

  private final Sink<T> inner;
  private final String table;
  private final SerializableFunction<T, List<String>> traceparents;
  private final JobTelemetry telemetry;

  /**
   * @param inner the sink that writes; it must write only when flushed (see the class comment)
   * @param table the table written, for the span's name and db.collection.name
   * @param traceparents the consume spans a row derives from (W3C traceparent strings)
   * @param telemetry where spans go
   */
  public TracedSink(Sink<T> inner, String table, SerializableFunction<T, List<String>> traceparents,
      JobTelemetry telemetry) {
    this.inner = inner;
    this.table = table;
    this.traceparents = traceparents;
    this.telemetry = telemetry;
  }

  @Override
  public SinkWriter<T> createWriter(WriterInitContext context) throws IOException {
    return new Writer(inner.createWriter(context));
  }

  private final class Writer implements SinkWriter<T> {
    private final SinkWriter<T> delegate;
    private final Tracer tracer = telemetry.tracer();
    private final List<String> links = new ArrayList<>();
    private int rows;

    Writer(SinkWriter<T> delegate) {
      this.delegate = delegate;
    }

    @Override
    public void write(T row, Context context) throws IOException, InterruptedException {
      delegate.write(row, context);
      rows++;
      if (links.size() < MAX_LINKS) {
        links.addAll(traceparents.apply(row));
      }
    }

    @Override
    public void flush(boolean endOfInput) throws IOException, InterruptedException {
      flushSpanned();
    }

    private void flushSpanned() throws IOException, InterruptedException {
      if (rows == 0) {
        delegate.flush(false);
        return;
      }
      SpanBuilder builder = tracer.spanBuilder("INSERT " + table)
          .setSpanKind(SpanKind.CLIENT)
          .setAttribute(DB_SYSTEM, "postgresql")
          .setAttribute(DB_COLLECTION, table)
          .setAttribute(DB_OPERATION, "INSERT")
          .setAttribute(DB_BATCH_SIZE, (long) rows);
      List<SpanContext> contexts = KafkaTraceContext.spanContexts(links);
      if (contexts.isEmpty()) {
        builder.setNoParent();
      } else {
        builder.setParent(io.opentelemetry.context.Context.root().with(Span.wrap(contexts.get(0))));
      }
      for (SpanContext c : contexts.subList(Math.min(1, contexts.size()), Math.min(MAX_LINKS + 1, contexts.size()))) {
        builder.addLink(c);
      }
      Span span = builder.startSpan();
      rows = 0;
      links.clear();
      try (Scope ignored = span.makeCurrent()) {
        delegate.flush(false);
      } catch (IOException | RuntimeException e) {
        span.recordException(e);
        span.setStatus(StatusCode.ERROR, e.getMessage());
        throw e;
      } finally {
        span.end();
      }
    }

    @Override
    public void close() throws Exception {
      delegate.close();
    }
  }

}
