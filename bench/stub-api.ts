import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stub Messaging API: POST /v1/messages answers 202 queued; list reads answer empty pages;
 * `GET /__sends` answers `{ sends, connections }` (for the benchmark, when the stub runs in its
 * own process; `connections` shows whether the client reuses its keep-alive connections).
 */
export interface StubApi {
  readonly url: string;
  /** Sends accepted so far. */
  sends(): number;
  close(): Promise<void>;
}

/** Starts the stub on an ephemeral port of 127.0.0.1. */
export async function startStubApi(): Promise<StubApi> {
  let sends = 0;
  let connections = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/messages') {
        sends++;
        res.writeHead(202, {
          'content-type': 'application/json',
          'x-service-request-id': `req_${sends}`,
        });
        res.end(
          JSON.stringify({
            messaging_product: 'whatsapp',
            messageId: `wamid_${sends}`,
            status: 'queued',
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url === '/__sends') res.end(JSON.stringify({ sends, connections }));
      else res.end(JSON.stringify({ items: [], nextCursor: null }));
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sends: () => sends,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
