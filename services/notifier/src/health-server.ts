import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { BIND_ADDRESS } from '@tierwise/common';
import type pg from 'pg';

/**
 * Serves GET /healthz on 127.0.0.1:`port`: 200 `{status:"ok"}` while PostgreSQL answers,
 * 503 `{code:"unavailable", message, request_id}` otherwise, 404 for any other path.
 */
export async function startHealthServer(pool: pg.Pool, port: number): Promise<Server> {
  const server = createServer((request, response) => {
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (request.method !== 'GET' || request.url !== '/healthz') {
      reply(404, { code: 'not_found', message: `no route ${request.method} ${request.url}`, request_id: randomUUID() });
      return;
    }
    pool.query('SELECT 1').then(
      () => reply(200, { status: 'ok' }),
      () => reply(503, { code: 'unavailable', message: 'database unreachable', request_id: randomUUID() }),
    );
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, BIND_ADDRESS, resolve));
  return server;
}
