import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the test server saw it. */
export interface Recorded {
  readonly method: string;
  /** Raw request target, e.g. `/v1/conversations?after=a%2Bb`. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export type Handler = (req: Recorded, res: ServerResponse) => void;

/** A node:http server on 127.0.0.1:0 whose handler each test sets. */
export interface TestServer {
  readonly baseUrl: string;
  readonly requests: Recorded[];
  handle(handler: Handler): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startTestServer(): Promise<TestServer> {
  let handler: Handler = (_req, res) => json(res, 500, { code: 'no_handler', message: 'none' });
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded: Recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      handler(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    handle: (h) => {
      handler = h;
    },
    reset: () => {
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** Writes a JSON response. */
export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Query parameters of a recorded request. */
export function queryOf(req: Recorded): URLSearchParams {
  return new URL(req.url, 'http://x').searchParams;
}

/** Polls `check` until it is true or the deadline passes (no fixed sleeps). */
export async function until(check: () => boolean, deadlineMs = 5_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met before the deadline');
    await new Promise((r) => setImmediate(r));
  }
}

export const message = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  conversationId: 'c1',
  contactId: 'ct1',
  direction: 'inbound',
  status: 'received',
  type: 'text',
  occurredAt: '2026-01-01T00:00:00.000Z',
  text: { body: 'hi' },
  ...extra,
});

export const conversation = (id: string) => ({
  id,
  contactId: `ct-${id}`,
  phoneNumber: '+14155550123',
  contactName: 'Ada',
  lastMessageAt: '2026-01-01T00:00:00.000Z',
  humanOwned: false,
  lastMessage: null,
});
