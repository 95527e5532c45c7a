// A recording TCP proxy: every byte a client sends is forwarded to the target
// and kept, per connection, so a test can inspect exactly what left the client.
import net from 'node:net';
import { once } from 'node:events';

/**
 * Listens on 127.0.0.1 (a free port) and forwards each connection to `targetHost:targetPort`.
 * Returns { url, connections(), close() }: connections() gives one Buffer per client connection
 * with every byte the client sent, in order; close() stops listening and ends open connections.
 */
export async function startCaptureProxy(targetHost, targetPort) {
  const captured = [];
  const sockets = new Set();
  const server = net.createServer((client) => {
    const chunks = [];
    captured.push(chunks);
    const upstream = net.connect(targetPort, targetHost);
    sockets.add(client).add(upstream);
    client.on('data', (chunk) => {
      chunks.push(Buffer.from(chunk));
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => sockets.delete(client));
    upstream.on('close', () => sockets.delete(upstream));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    connections: () => captured.map((chunks) => Buffer.concat(chunks)),
    close: async () => {
      for (const s of sockets) s.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
