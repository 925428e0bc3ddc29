import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';

function capture(format: 'json' | 'pretty') {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
  const logger = createLogger({
    format,
    level: 'debug',
    stream,
    secrets: ['sk_live_SECRET123', 'whsec_ABCDEF99'],
  });
  return { logger, text: () => chunks.join('') };
}

describe('createLogger', () => {
  for (const format of ['json', 'pretty'] as const) {
    it(`should redact the API key, Authorization headers and signing secrets (${format})`, async () => {
      const { logger, text } = capture(format);
      logger.info('calling with key sk_live_SECRET123', {
        headers: { Authorization: 'Bearer sk_live_SECRET123', accept: 'application/json' },
        nested: { deep: [{ note: 'secret is whsec_ABCDEF99 here' }] },
        apiKey: 'other-key-value',
        callbackSecret: 'short',
      });
      logger.child({ route: 'POST /v1/messages' }).error('failed', {
        error: new Error('auth failed for Bearer abcdefghijk'),
      });
      await new Promise((r) => setImmediate(r));
      const out = text();
      expect(out).toContain('calling with key');
      expect(out).toContain('POST /v1/messages');
      expect(out).not.toMatch(
        /sk_live_SECRET123|whsec_ABCDEF99|other-key-value|abcdefghijk|"short"/,
      );
      expect(out).toContain('[redacted]');
      expect(out).toContain('application/json');
    });
  }

  it('should write one JSON object per line in json format', async () => {
    const { logger, text } = capture('json');
    logger.warn('hello', { n: 1 });
    await new Promise((r) => setImmediate(r));
    const line = JSON.parse(text().trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 'warn', message: 'hello', n: 1 });
  });
});
