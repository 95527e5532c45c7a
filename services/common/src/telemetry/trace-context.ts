import { context, propagation, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

const tracer = trace.getTracer('@tierwise/common');

/**
 * The W3C trace context of the active span as message headers (`traceparent`, and `tracestate`
 * when set; W3C Trace Context, section 3), to put on a Kafka record so that its consumer
 * continues the trace. Empty when no SDK is running.
 */
export function traceHeaders(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/**
 * Runs `work` inside a new span named `name` (kind PRODUCER for publishes, else INTERNAL),
 * records an exception and sets the error status when it throws, and ends the span.
 * Without a running SDK the span is a no-op and `work` simply runs.
 */
export async function inSpan<T>(
  name: string,
  options: { kind?: 'producer' | 'internal'; attributes?: Record<string, string | number> },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const kind = options.kind === 'producer' ? SpanKind.PRODUCER : SpanKind.INTERNAL;
  return tracer.startActiveSpan(name, { kind, attributes: options.attributes }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  });
}
