/**
 * Freshness of the fleet's intervals: from the moment a probe volume's interval closed on its
 * (simulated) agent to the moment `GET /v1/volumes/{id}` shows it (io.last_interval >= the
 * interval's start), through ingest, Kafka, the metrics job and PostgreSQL. Each probe volume
 * is polled every `pollMs` while it has an interval not yet visible.
 *
 * new FreshnessProbes({apiUrl, apiKey, volumeIds, pollMs = 500})
 * probes.reported(volumeId, startMs, closedAtMs)  the interval was accepted by ingest
 * probes.start() / await probes.stop()
 * probes.samples: seconds from close to visible, of intervals with closedAtMs >= probes.fromMs
 * probes.pendingCount(): intervals accepted but not seen yet; probes.errors: polls that failed
 */
export class FreshnessProbes {
  constructor({ apiUrl, apiKey, volumeIds, pollMs = 500 }) {
    Object.assign(this, { apiUrl, apiKey, pollMs });
    this.pending = new Map(volumeIds.map((id) => [id, []]));
    this.samples = [];
    this.fromMs = 0;
    this.errors = 0;
  }

  reported(volumeId, startMs, closedAtMs) {
    this.pending.get(volumeId)?.push({ startMs, closedAtMs });
  }

  pendingCount() {
    return [...this.pending.values()].reduce((n, list) => n + list.length, 0);
  }

  start() {
    this.running = true;
    this.loop = this.poll();
  }

  async stop() {
    this.running = false;
    await this.loop;
  }

  async poll() {
    while (this.running) {
      await Promise.all([...this.pending].filter(([, list]) => list.length).map(([id, list]) => this.check(id, list)));
      await new Promise((resolve) => setTimeout(resolve, this.pollMs));
    }
  }

  async check(volumeId, list) {
    try {
      const response = await fetch(`${this.apiUrl}/v1/volumes/${volumeId}`, { headers: { authorization: `Bearer ${this.apiKey}` } });
      if (response.status === 404) return void (await response.arrayBuffer());
      if (!response.ok) throw new Error(String(response.status));
      const last = Date.parse((await response.json()).io?.last_interval ?? '');
      const now = Date.now();
      while (list.length && last >= list[0].startMs) {
        const { closedAtMs } = list.shift();
        if (closedAtMs >= this.fromMs) this.samples.push((now - closedAtMs) / 1000);
      }
    } catch {
      this.errors += 1;
    }
  }
}
