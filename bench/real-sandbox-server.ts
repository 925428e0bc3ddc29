/**
 * The sandbox of the real-load benchmark, in its own process, as `switchboard sandbox
 * --config <file>` runs it (createSandbox on the wall clock, its 250 ms due-work tick,
 * rate limits on, signed callbacks with status callbacks), behind a front that counts
 * every request. `node real-sandbox-server.js <config.json>`; prints `{"url": …}`.
 *
 * Bench-only routes (on the front, never on the sandbox): `GET /__bench/counts` (API
 * requests by kind, callbacks attempted by type and answer, this process's CPU) and
 * `GET /__bench/sent` (the log of accepted sends: to, type, text, acceptedAt).
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { silentLogger } from '../src/log/logger.js';
import { createSandbox, SandboxConfigSchema } from '../src/sandbox/index.js';

const [configPath = ''] = process.argv.slice(2);
const config = SandboxConfigSchema.parse(JSON.parse(readFileSync(configPath, 'utf8')));
const sandbox = createSandbox({ config, logger: silentLogger });
const requests = new Map<string, number>();
const front = express();
front.get('/__bench/counts', (_req, res) => {
  const callbacks: Record<string, number> = {};
  for (const a of sandbox.control.callbackAttempts()) {
    const key = `${a.type} ${a.httpStatus === undefined ? 'error' : String(a.httpStatus)}`;
    callbacks[key] = (callbacks[key] ?? 0) + 1;
  }
  const cpu = process.cpuUsage();
  res.json({
    requests: Object.fromEntries(requests),
    callbacks,
    cpuMicros: cpu.user + cpu.system,
  });
});
front.get('/__bench/sent', (_req, res) => {
  res.json(
    sandbox.control.sent().map((s) => ({
      messageId: s.messageId,
      conversationId: s.conversationId,
      to: s.to,
      type: s.type,
      text: (s.request['text'] as { body?: string } | undefined)?.body,
      acceptedAt: s.acceptedAt,
    })),
  );
});
front.use((req, res, next) => {
  // Classified when it arrives: the sandbox's routers rewrite req.url.
  const kind = req.path.startsWith('/v1/')
    ? `${req.method} ${req.path.split('/')[2] ?? ''}`
    : req.path.startsWith('/sandbox/')
      ? 'control'
      : 'other';
  res.on('finish', () => {
    const key = `${kind} ${res.statusCode}`;
    requests.set(key, (requests.get(key) ?? 0) + 1);
  });
  next();
});
front.use(sandbox.app);
const server = front.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
const stop = (): void => {
  void sandbox.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
