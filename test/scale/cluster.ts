import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { waitUntil } from '../wait-until.js';
import { cliEnv } from '../cli-env.js';

/** The line `switchboard run` prints on stdout once its callback server listens. */
const Listening = z.object({
  message: z.literal('listening'),
  role: z.literal('callbacks'),
  url: z.string(),
});

/** A worker child process. */
export interface WorkerProcess {
  readonly url: string;
  /** The worker's pid, as the scale bot's `record` handler writes it (`w`). */
  readonly worker: string;
  readonly child: ChildProcess;
  /** kill -9. */
  kill9(): Promise<void>;
}

/**
 * Spawns the real CLI, `switchboard run test/scale/scale-bot.ts --port 0 --poll <POLL_MS>ms`,
 * with `env` (MESSAGING_API_BASE_URL, MESSAGING_API_KEY, CALLBACK_SECRET, REDIS_URL,
 * REDIS_PREFIX, POLL_MS), and waits for the `listening` line it prints on stdout.
 */
export async function spawnWorker(env: Record<string, string>): Promise<WorkerProcess> {
  const { POLL_MS: pollMs = '500', ...rest } = env;
  const child = spawn(
    process.execPath,
    [
      'bin/switchboard.js',
      'run',
      'test/scale/scale-bot.ts',
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--poll',
      `${pollMs}ms`,
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: cliEnv({ LOG_LEVEL: 'silent', LOG_FORMAT: 'json', ...rest }),
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const lines = createInterface({ input: child.stdout });
  const ready = await new Promise<z.infer<typeof Listening>>((resolve, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`worker exited with ${String(code)}: ${stderr}`)),
    );
    lines.on('line', (line) => {
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        return; // Not the listening line (the CLI prints only JSON there, but be tolerant).
      }
      const parsed = Listening.safeParse(json);
      if (parsed.success) resolve(parsed.data);
    });
  });
  return {
    url: ready.url,
    worker: String(child.pid),
    child,
    kill9: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

/** A tiny HTTP proxy spreading requests round-robin over targets (502 when one is down). */
export interface RoundRobinProxy {
  readonly url: string;
  /** Requests forwarded per target URL. */
  readonly forwarded: Map<string, number>;
  close(): Promise<void>;
}

/** Starts the proxy on 127.0.0.1; `targets()` is read on every request (targets may die). */
export async function roundRobinProxy(targets: () => readonly string[]): Promise<RoundRobinProxy> {
  let next = 0;
  const forwarded = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const list = targets();
      const target = list[next++ % list.length];
      if (target === undefined) {
        res.writeHead(502).end();
        return;
      }
      forwarded.set(target, (forwarded.get(target) ?? 0) + 1);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) {
        if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k))
          headers[k] = v;
      }
      fetch(`${target}${req.url ?? '/'}`, {
        method: req.method ?? 'POST',
        headers,
        body: Buffer.concat(chunks),
      })
        .then(async (upstream) => {
          const body = Buffer.from(await upstream.arrayBuffer());
          res.writeHead(upstream.status, {
            'content-type': upstream.headers.get('content-type') ?? 'application/json',
          });
          res.end(body);
        })
        .catch(() => {
          // The worker is down: the sender (the sandbox) retries, and the next try goes elsewhere.
          res.writeHead(502).end();
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Polls `check` until it returns true or the deadline passes; returns the last answer. */
export function waitFor(
  check: () => boolean | Promise<boolean>,
  deadlineMs: number,
  everyMs = 100,
): Promise<boolean> {
  return waitUntil(check, deadlineMs, everyMs);
}
