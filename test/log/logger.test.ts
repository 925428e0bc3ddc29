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

  it('should drop records below the level before reading their metadata', async () => {
    const stream = new PassThrough();
    const chunks: string[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
    let reads = 0;
    const meta = {
      get conversationId() {
        reads++;
        return 'c1';
      },
    };
    const info = createLogger({ format: 'json', level: 'info', stream });
    info.debug('hidden', meta);
    info.child({ worker: 'w1' }).debug('hidden too', meta);
    info.info('shown', { n: 1 });
    const silent = createLogger({ format: 'json', level: 'silent', stream });
    silent.error('never', meta);
    await new Promise((r) => setImmediate(r));
    expect(reads).toBe(0);
    const lines = chunks.join('').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ level: 'info', message: 'shown' });
  });
});
