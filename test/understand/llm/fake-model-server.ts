/**
 * An OpenAI-compatible fake model for tests: `POST /v1/chat/completions` answers what the
 * test scripted for the next call (a reply text, an HTTP status, a delay, or never), and
 * records every request body.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake does with one call. */
export type FakeReply =
  | { readonly content: string; readonly delayMs?: number }
  | { readonly status: number; readonly body?: string }
  | { readonly raw: string }
  | { readonly never: true };

/** A started fake model. */
export interface FakeModel {
  readonly baseUrl: string;
  /** Bodies of every request received, parsed, with their headers. */
  readonly calls: { body: unknown; headers: IncomingMessage['headers'] }[];
  /** Queues replies for the next calls (the last one repeats). */
  script(...replies: FakeReply[]): void;
  close(): Promise<void>;
}

/** Starts the fake on 127.0.0.1 on an ephemeral port. */
export async function startFakeModel(): Promise<FakeModel> {
  let queue: FakeReply[] = [];
  const calls: FakeModel['calls'] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      calls.push({
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown,
        headers: req.headers,
      });
      const reply = (queue.length > 1 ? queue.shift() : queue[0]) ?? { status: 500 };
      if ('never' in reply) {
        hanging.add(res);
        return;
      }
      if ('status' in reply) {
        res
          .writeHead(reply.status, { 'content-type': 'application/json' })
          .end(reply.body ?? '{"error":{"message":"scripted"}}');
        return;
      }
      if ('raw' in reply) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(reply.raw);
        return;
      }
      const send = (): void => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: 'x',
            object: 'chat.completion',
            choices: [{ index: 0, message: { role: 'assistant', content: reply.content } }],
          }),
        );
      };
      if (reply.delayMs === undefined) send();
      else {
        hanging.add(res);
        setTimeout(() => {
          hanging.delete(res);
          if (!res.destroyed) send();
        }, reply.delayMs).unref();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    calls,
    script: (...replies) => {
      queue = replies;
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
