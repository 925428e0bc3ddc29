import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBot } from '../../src/bot/load-bot.js';
import { parseRunConfig } from '../../src/cli/run-config.js';
import { startWorker } from '../../src/cli/run-worker.js';
import { silentLogger } from '../../src/log/logger.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { waitUntil } from '../wait-until.js';

const SECRET = 'run-tracing-test-secret';

/** An OTLP/HTTP receiver on 127.0.0.1 that keeps the JSON bodies posted to /v1/traces. */
async function startCollector(): Promise<{ server: Server; url: string; bodies: string[] }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') bodies.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, bodies };
}

describe('switchboard run with OTEL_* variables', () => {
  let sandbox: Sandbox;
  let apiUrl: string;

  beforeAll(async () => {
    sandbox = createSandbox();
    apiUrl = (await sandbox.listen()).url;
  });
  afterAll(() => sandbox.close());

  const config = () => {
    const parsed = parseRunConfig(
      { host: '127.0.0.1', port: '0' },
      {
        MESSAGING_API_BASE_URL: apiUrl,
        MESSAGING_API_KEY: sandbox.config.keys[0]!.key,
        CALLBACK_SECRET: SECRET,
        STATE_PATH: join(tmpdir(), `sb-trace-${randomUUID()}`, 'state.db'),
      },
    );
    if (parsed.status !== 'ok') throw new Error(parsed.message);
    return parsed.config;
  };

  it('should export the spans of an inbound message to the OTLP endpoint, and flush them on stop', async () => {
    const collector = await startCollector();
    const loaded = await loadBot('examples/support-desk');
    if (loaded.status !== 'ok') throw new Error(loaded.message);
    const worker = await startWorker(loaded.bot, config(), {
      stdout: new PassThrough(),
      logger: silentLogger,
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        SWITCHBOARD_BUSINESS_NUMBER: '+15550009999',
      },
    });
    try {
      sandbox.control.setCallback({ url: `${worker.url}/callbacks`, secret: SECRET });
      sandbox.control.injectInbound({ type: 'text', from: '+15551238001', text: 'hi' });
      expect(await waitUntil(() => sandbox.control.sent().length >= 1, 15_000)).toBe(true);
      await worker.bot.idle();
      // The operations metrics are wired too: API attempts, the store probe, the backlog.
      const metrics = await (await fetch(`${worker.url}/metrics`)).text();
      expect(metrics).toMatch(
        /^switchboard_api_calls_total\{route="POST \/v1\/messages",status="202"\} [1-9]/m,
      );
      expect(metrics).toMatch(/^switchboard_store_up 1$/m);
      expect(metrics).toMatch(/^switchboard_backlog_oldest_age_seconds 0$/m);
      expect(metrics).toMatch(/^switchboard_inbound_wait_seconds_count 1$/m);
    } finally {
      sandbox.control.setCallback(undefined);
      await worker.stop();
      collector.server.close();
    }
    const all = collector.bodies.join('\n');
    for (const name of ['ingest inbound', 'turn inbound', 'POST /v1/messages'])
      expect(all).toContain(`"name":"${name}"`);
    expect(all).toContain('"switchboard.business_number"');
    expect(all).toContain('+15550009999');
    expect(all).not.toContain('+15551238001');
    expect(all).not.toContain(sandbox.config.keys[0]!.key);
  });

  it('should refuse to start with an unsupported exporter, saying which variable', async () => {
    const loaded = await loadBot('examples/support-desk');
    if (loaded.status !== 'ok') throw new Error(loaded.message);
    await expect(
      startWorker(loaded.bot, config(), {
        stdout: new PassThrough(),
        logger: silentLogger,
        env: { OTEL_TRACES_EXPORTER: 'zipkin' },
      }),
    ).rejects.toThrow(/OTEL_TRACES_EXPORTER=zipkin/);
  });
});
