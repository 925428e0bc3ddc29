import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';
import { API_KEY, makeClient, textRequest } from './client-fixture.js';
import { json, message, startTestServer, until, type TestServer } from './test-server.js';

/** A debug JSON logger writing to memory, deliberately without the key in `secrets`. */
function capture() {
  const stream = new PassThrough();
  const lines: string[] = [];
  let buffer = '';
  stream.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    lines.push(...parts.filter((l) => l !== ''));
  });
  const logger = createLogger({ format: 'json', level: 'debug', stream });
  return { logger, lines };
}

describe('MessagingClient logging', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  it('should log support fields for successes and errors and never the API key', async () => {
    const { logger, lines } = capture();
    let calls = 0;
    server.handle((req, res) => {
      calls++;
      if (req.method === 'POST') {
        json(
          res,
          401,
          { code: 'invalid_api_key', message: `key ${API_KEY} was revoked` },
          {
            'x-service-request-id': 'rq-post',
          },
        );
      } else if (calls === 1) {
        json(res, 500, { code: 'boom', message: API_KEY }, { 'x-service-request-id': 'rq-500' });
      } else {
        json(res, 200, { message: message('m1') }, { 'x-service-request-id': 'rq-ok' });
      }
    });
    const { client } = makeClient(server.baseUrl, { logger });
    await client.getMessage('m1');
    const sent = await client.send(textRequest());
    expect(sent.status).toBe('rejected');
    await until(() => lines.length >= 3);
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.map((r) => [r['level'], r['status'], r['code'], r['requestId']])).toEqual([
      ['warn', 500, 'boom', 'rq-500'],
      ['debug', 200, undefined, 'rq-ok'],
      ['warn', 401, 'invalid_api_key', 'rq-post'],
    ]);
    for (const r of records) {
      expect(typeof r['route']).toBe('string');
      expect(r['requestTime']).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
    expect(records[2]!['route']).toBe('POST /v1/messages');
    expect(lines.join('\n')).not.toContain(API_KEY);
  });

  it('should not log the key when a send times out', async () => {
    const { logger, lines } = capture();
    server.handle(() => undefined);
    const { client } = makeClient(server.baseUrl, { logger, timeoutMs: 100 });
    expect((await client.send(textRequest())).status).toBe('unknown');
    await until(() => lines.length >= 1);
    expect(lines[0]).toContain('"code":"timeout"');
    expect(lines.join('\n')).not.toContain(API_KEY);
  });
});
