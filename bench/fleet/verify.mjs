/**
 * The end-to-end count: every volume-interval ingest accepted has its row in volume_metrics_10s
 * (one per volume and interval start), through Kafka and the metrics job. Waits until the count
 * stops rising (the job writes at most once a second per volume) or `timeoutSeconds` pass.
 *
 * verifyRows({pgUrl, tenantId, expected, timeoutSeconds = 120}) -> {expected, rows, missing}
 */
import pg from 'pg';

export async function verifyRows({ pgUrl, tenantId, expected, timeoutSeconds = 120 }) {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutSeconds * 1000;
    let rows = -1;
    let still = 0;
    while (Date.now() < deadline) {
      const now = Number((await client.query('SELECT count(*) AS n FROM volume_metrics_10s WHERE tenant_id = $1', [tenantId])).rows[0].n);
      if (now >= expected) return { expected, rows: now, missing: 0 };
      still = now === rows ? still + 1 : 0;
      if (still >= 12) break;
      rows = now;
      await new Promise((resolve) => setTimeout(resolve, 5000));
    }
    return { expected, rows, missing: expected - rows };
  } finally {
    await client.end();
  }
}
