import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A lean stub Messaging API on plain `node:net` (minimal HTTP/1.1, keep-alive, bodies
 * with Content-Length only): `POST /v1/messages` answers 202 with the spec's send
 * response (2.5: `messaging_product`, a unique `messageId`, `status: queued`, plus an
 * `X-Service-Request-Id` header); list reads answer empty pages. It costs the scale-out
 * benchmark's 2 cores less than an `http.Server` per send, and it records every text
 * send per recipient (`to`) in arrival order, so the benchmark can check that each
 * acknowledged callback was answered exactly once and in order:
 * `GET /__sends` → `{ sends, connections }`; `POST /__take` → `{ sends, byTo }` (the
 * texts received since the last take, per recipient, in arrival order) and starts afresh;
 * `GET /__cpu` → `{ cpuMicros }`.
 */
export interface LeanStub {
  readonly url: string;
  close(): Promise<void>;
}

const HEADER_END = Buffer.from('\r\n\r\n');
const SendBody = (text: string): { to: string; body: string } | undefined => {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const to: unknown = Reflect.get(parsed, 'to');
  const body: unknown = Reflect.get(Object(Reflect.get(parsed, 'text')), 'body');
  return typeof to === 'string' && typeof body === 'string' ? { to, body } : undefined;
};

/** Starts the lean stub on an ephemeral port of 127.0.0.1. */
export async function startLeanStub(): Promise<LeanStub> {
  let sends = 0;
  let connections = 0;
  let byTo = new Map<string, string[]>();
  let taken = 0;

  const respond = (socket: Socket, status: string, json: string, extra = ''): void => {
    socket.write(
      `HTTP/1.1 ${status}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(json)}\r\nconnection: keep-alive\r\n${extra}\r\n${json}`,
    );
  };

  const handle = (socket: Socket, method: string, path: string, body: string): void => {
    if (method === 'POST' && path === '/v1/messages') {
      sends++;
      const send = SendBody(body);
      if (send !== undefined) {
        let list = byTo.get(send.to);
        if (list === undefined) byTo.set(send.to, (list = []));
        list.push(send.body);
      }
      respond(
        socket,
        '202 Accepted',
        `{"messaging_product":"whatsapp","messageId":"wamid_${sends}","status":"queued"}`,
        `x-service-request-id: req_${sends}\r\n`,
      );
      return;
    }
    if (path === '/__sends') {
      respond(socket, '200 OK', JSON.stringify({ sends, connections }));
      return;
    }
    if (path === '/__take') {
      const snapshot = { sends: sends - taken, byTo: Object.fromEntries(byTo) };
      taken = sends;
      byTo = new Map();
      respond(socket, '200 OK', JSON.stringify(snapshot));
      return;
    }
    if (path === '/__cpu') {
      const cpu = process.cpuUsage();
      respond(socket, '200 OK', JSON.stringify({ cpuMicros: cpu.user + cpu.system }));
      return;
    }
    respond(socket, '200 OK', '{"items":[],"nextCursor":null}');
  };

  const server: Server = createServer((socket) => {
    connections++;
    let pending: Buffer = Buffer.alloc(0);
    socket.setNoDelay(true);
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      for (;;) {
        const end = pending.indexOf(HEADER_END);
        if (end < 0) return;
        const head = pending.toString('latin1', 0, end);
        const lines = head.split('\r\n');
        const [method = '', path = ''] = (lines[0] ?? '').split(' ');
        let length = 0;
        for (let i = 1; i < lines.length; i++) {
          const line = lines[i] ?? '';
          const colon = line.indexOf(':');
          const name = line.slice(0, colon).trim().toLowerCase();
          if (name === 'content-length') length = Number(line.slice(colon + 1).trim());
          else if (name === 'transfer-encoding') {
            // Not needed by the clients under test; refuse rather than misread a body.
            respond(socket, '411 Length Required', '{"code":"length_required"}');
            socket.end();
            return;
          }
        }
        const total = end + HEADER_END.length + length;
        if (pending.length < total) return;
        const body = pending.toString('utf8', end + HEADER_END.length, total);
        pending = pending.subarray(total);
        handle(socket, method, path, body);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
