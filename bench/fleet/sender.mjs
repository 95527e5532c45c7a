/**
 * Sends the fleet's requests as agents do: per host and stream (metrics, references) one request
 * at a time, in order; a request answered 429 or 5xx, or lost on the network, is sent again,
 * unchanged (same batch id), after the agent's wait (edge-agent/src/export/retry_delay.hpp: an
 * exponential backoff with jitter, never sooner than the answer's Retry-After), like its spool.
 * Any other 4xx is a refusal: the request is counted as lost with its reason. Like the agent's
 * bounded spool, the requests queued fleet-wide hold at most `maxBacklogBytes`: a request that
 * does not fit is dropped and counted lost (`spoolFull`).
 *
 * new FleetSender({url, maxBacklogBytes}); sender.enqueue(host, item)
 *   host: {index, token}
 *   item: {stream: 'metrics' | 'refs', path, body, headers, volumeIntervals, references, batches?, onAck?(ackedAtMs)}
 *     batches: the reference batches the request carries
 * sender.stats: per stream {queued, spoolFull, sent, accepted, refused, retries, bytes, volumeIntervals,
 *   references, batches (offered), acceptedBatches, latency (HdrHistogram, microseconds, first send to acceptance)},
 *   refusals: {reason: count}
 * sender.backlog() -> requests queued or in flight; sender.idle() -> Promise resolved at 0
 */
import http from 'node:http';
import hdr from 'hdr-histogram-js';

/** The agent's SenderConfig defaults (edge-agent/src/export/http_sender.hpp), ms. */
const INITIAL_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 30_000;

/** The wait before retry number `attempt` (from 1), ms: the agent's retry_delay (retry_delay.hpp). */
export function retryDelayMs(attempt, retryAfterMs, random = Math.random) {
  const base = Math.min(INITIAL_BACKOFF_MS * 2 ** Math.min(Math.max(attempt - 1, 0), 20), MAX_BACKOFF_MS);
  let delay = base - Math.floor(base / 2) + Math.floor(random() * (Math.floor(base / 2) + 1));
  if (retryAfterMs > 0) {
    const least = Math.min(retryAfterMs, MAX_BACKOFF_MS);
    delay = Math.min(Math.max(delay, least + Math.floor(random() * (Math.floor(least / 2) + 1))), MAX_BACKOFF_MS);
  }
  return delay;
}

function streamStats() {
  return {
    queued: 0, spoolFull: 0, sent: 0, accepted: 0, refused: 0, retries: 0, bytes: 0, volumeIntervals: 0, references: 0,
    batches: 0, acceptedBatches: 0,
    latency: hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 }),
  };
}

export class FleetSender {
  constructor({ url, maxBacklogBytes = 2 ** 31 }) {
    this.url = new URL(url);
    this.maxBacklogBytes = maxBacklogBytes;
    this.backlogBytes = 0;
    this.agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
    this.queues = new Map();
    this.pending = 0;
    this.stats = { metrics: streamStats(), refs: streamStats(), refusals: {} };
    this.waiters = [];
  }

  enqueue(host, item) {
    const key = `${host.index}/${item.stream}`;
    if (!this.queues.has(key)) this.queues.set(key, { items: [], busy: false, token: host.token, failures: 0 });
    const queue = this.queues.get(key);
    const stats = this.stats[item.stream];
    stats.queued += 1;
    stats.batches += item.batches ?? 0;
    if (this.backlogBytes + item.body.length > this.maxBacklogBytes) {
      stats.spoolFull += 1;
      return;
    }
    this.backlogBytes += item.body.length;
    queue.items.push({ ...item, firstSentMs: null });
    this.pending += 1;
    if (!queue.busy) this.pump(queue);
  }

  backlog() {
    return this.pending;
  }

  idle() {
    return this.pending === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }

  close() {
    this.agent.destroy();
  }

  async pump(queue) {
    queue.busy = true;
    while (queue.items.length) {
      const item = queue.items[0];
      const stats = this.stats[item.stream];
      item.firstSentMs ??= performance.now();
      stats.sent += 1;
      const answer = await this.post(item, queue.token);
      if (answer.status >= 200 && answer.status < 300) {
        queue.items.shift();
        queue.failures = 0;
        Object.assign(stats, {
          accepted: stats.accepted + 1, bytes: stats.bytes + item.body.length,
          volumeIntervals: stats.volumeIntervals + item.volumeIntervals, references: stats.references + item.references,
          acceptedBatches: stats.acceptedBatches + (item.batches ?? 0),
        });
        stats.latency.recordValue(Math.max(1, Math.round((performance.now() - item.firstSentMs) * 1000)));
        item.onAck?.(Date.now());
        this.done(item);
      } else if (answer.status === 'error' || answer.status === 429 || answer.status >= 500) {
        stats.retries += 1;
        queue.failures += 1;
        await new Promise((resolve) => setTimeout(resolve, retryDelayMs(queue.failures, answer.retryAfterMs)));
      } else {
        queue.items.shift();
        queue.failures = 0;
        stats.refused += 1;
        const reason = `${answer.status} ${answer.text.slice(0, 160)}`;
        this.stats.refusals[reason] = (this.stats.refusals[reason] ?? 0) + 1;
        this.done(item);
      }
    }
    queue.busy = false;
  }

  done(item) {
    this.pending -= 1;
    this.backlogBytes -= item.body.length;
    if (this.pending === 0) for (const resolve of this.waiters.splice(0)) resolve();
  }

  post(item, token) {
    return new Promise((resolve) => {
      const request = http.request({
        host: this.url.hostname, port: this.url.port, path: item.path, method: 'POST', agent: this.agent,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-protobuf', 'content-length': item.body.length, ...item.headers },
      }, (response) => {
        const chunks = [];
        response.on('data', (c) => chunks.push(c));
        response.on('end', () => {
          const retryAfter = Number(response.headers['retry-after']);
          resolve({ status: response.statusCode, text: Buffer.concat(chunks).toString(), retryAfterMs: retryAfter > 0 ? retryAfter * 1000 : null });
        });
        response.on('error', () => resolve({ status: 'error' }));
      });
      request.on('error', () => resolve({ status: 'error' }));
      request.end(item.body);
    });
  }
}
