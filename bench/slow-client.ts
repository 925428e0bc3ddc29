/**
 * How long a slow client can hold a connection to the callback server of `switchboard
 * run` (default timeouts): headers trickled, a body trickled, and a connection that sends
 * nothing. Run: `npx tsx bench/slow-client.ts`.
 */
import { connect } from 'node:net';
import { closeServer, createRunApp, listenOn } from '../src/cli/run-server.js';
import express from 'express';

const app = createRunApp({
  probe: { isDraining: () => false, readiness: () => Promise.resolve({ status: 'ready' }) },
  callbacks: {
    path: '/callbacks',
    router: express.Router().post('/', express.raw(), (_q, r) => void r.json({})),
  },
});
const served = await listenOn(app, '127.0.0.1', 0);
const port = Number(new URL(served.url).port);

function hold(name: string, first: string, drip: string | undefined): Promise<string> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      if (first !== '') socket.write(first);
      if (drip !== undefined) timer = setInterval(() => socket.writable && socket.write(drip), 500);
    });
    let answer = '';
    socket.on('data', (c: Buffer) => (answer += c.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      const status = /^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 'closed without an answer';
      resolve(`${name}: held ${((Date.now() - started) / 1000).toFixed(1)} s (${status})`);
    });
  });
}

const results = await Promise.all([
  hold('headers trickled (1 byte / 500 ms)', 'POST /callbacks HTTP/1.1\r\nHost: x\r\n', 'X'),
  hold(
    'body trickled (1 byte / 500 ms)',
    'POST /callbacks HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\n',
    'x',
  ),
  hold('connection that sends nothing', '', undefined),
]);
for (const line of results) console.log(line);
await closeServer(served.server);
