// An OTLP/HTTP receiver on 127.0.0.1 for tests (OpenTelemetry Protocol specification,
// "OTLP/HTTP"): POST /v1/traces and /v1/metrics with protobuf bodies (gzip allowed), decoded
// with the official .proto files that @tierwise/proto unpacks into proto/gen/otlp. It keeps
// what it received: spans (ids as hex) and metric names, each with the service.name of its
// resource.
import http from 'node:http';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import protobuf from 'protobufjs';
import { ROOT } from './stack.mjs';

const OTLP_DIR = path.join(ROOT, 'proto/gen/otlp');
const SERVICES = {
  '/v1/traces': ['opentelemetry/proto/collector/trace/v1/trace_service.proto', 'opentelemetry.proto.collector.trace.v1'],
  '/v1/metrics': ['opentelemetry/proto/collector/metrics/v1/metrics_service.proto', 'opentelemetry.proto.collector.metrics.v1'],
};

function loadTypes() {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => (path.isAbsolute(target) ? target : path.join(OTLP_DIR, target));
  const files = Object.values(SERVICES).map(([file]) => file);
  if (!existsSync(path.join(OTLP_DIR, files[0]))) throw new Error(`${OTLP_DIR} has no OTLP protos: build @tierwise/proto first`);
  root.loadSync(files, { keepCase: false });
  return Object.fromEntries(Object.entries(SERVICES).map(([route, [, pkg]]) => {
    const kind = route === '/v1/traces' ? 'Trace' : 'Metrics';
    return [route, { request: root.lookupType(`${pkg}.Export${kind}ServiceRequest`), response: root.lookupType(`${pkg}.Export${kind}ServiceResponse`) }];
  }));
}

const hex = (bytes) => Buffer.from(bytes ?? []).toString('hex');
const serviceOf = (resource) => resource?.attributes?.find((a) => a.key === 'service.name')?.value?.stringValue ?? null;
const attributesOf = (list) => Object.fromEntries((list ?? []).map((a) => [a.key, Object.values(a.value ?? {})[0]]));

/**
 * Starts the receiver. Returns {url, spans, metricNames, close()}: `url` is the base for
 * OTEL_EXPORTER_OTLP_ENDPOINT; `spans` holds {service, name, kind, traceId, spanId, parentSpanId,
 * links: [{traceId, spanId}], attributes}; `metricNames` holds {service, name}.
 */
export async function startOtlpReceiver() {
  const types = loadTypes();
  const spans = [];
  const metricNames = [];
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    try {
      for await (const chunk of req) chunks.push(chunk);
    } catch {
      // The exporter went away mid-body (a service stopping while it flushes, or our close()):
      // there is no request to keep and no one to answer.
      return;
    }
    const type = types[req.url];
    if (req.method !== 'POST' || !type) {
      res.writeHead(404).end();
      return;
    }
    let body = Buffer.concat(chunks);
    if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
    let message;
    try {
      message = type.request.decode(body);
    } catch (error) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(`not an OTLP protobuf request: ${error.message}`);
      return;
    }
    if (req.url === '/v1/traces') {
      for (const rs of message.resourceSpans ?? []) {
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({
              service: serviceOf(rs.resource), name: s.name, kind: s.kind, traceId: hex(s.traceId), spanId: hex(s.spanId),
              parentSpanId: hex(s.parentSpanId), links: (s.links ?? []).map((l) => ({ traceId: hex(l.traceId), spanId: hex(l.spanId) })),
              attributes: attributesOf(s.attributes),
            });
          }
        }
      }
    } else {
      for (const rm of message.resourceMetrics ?? []) {
        for (const sm of rm.scopeMetrics ?? []) {
          for (const m of sm.metrics ?? []) metricNames.push({ service: serviceOf(rm.resource), name: m.name });
        }
      }
    }
    res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end(Buffer.from(type.response.encode({}).finish()));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    spans,
    metricNames,
    // The exporters keep their connections alive: close those too.
    close: () => new Promise((resolve) => { server.close(resolve); server.closeAllConnections(); }),
  };
}
