import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/log/logger.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import type { InboxItem } from '../../src/store/store.js';
import { echoFlow } from './echo-machine.js';
import { ADA, startHarness, type Harness } from './harness.js';
import { receivedCallback } from './signed-callback.js';

const SECRET = 'whsec_deadline';

/**
 * A memory store whose inbox writes stop answering while `stalled`: each one waits until
 * `land()` (the write then happens, late) or `drop()` (it fails, late).
 */
class StallingStore extends MemoryStore {
  stalled = false;
  readonly #held: Array<{ land: () => void; drop: () => void }> = [];
  override enqueue(conversationId: string, item: InboxItem, ttl: number): Promise<boolean> {
    if (!this.stalled) return super.enqueue(conversationId, item, ttl);
    return new Promise((resolve, reject) => {
      this.#held.push({
        land: () => resolve(super.enqueue(conversationId, item, ttl)),
        drop: () => reject(new Error('ECONNRESET')),
      });
    });
  }
  get held(): number {
    return this.#held.length;
  }
  land(): void {
    for (const write of this.#held.splice(0)) write.land();
  }
  drop(): void {
    for (const write of this.#held.splice(0)) write.drop();
  }
}

function recording(lines: Array<[string, string]>): Logger {
  const at = (level: string) => (message: string) => void lines.push([level, message]);
  const logger: Logger = {
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    child: () => logger,
  };
  return logger;
}

describe('callbacks while the store does not answer', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  async function outage(storeDeadlineMs?: number) {
    const store = new StallingStore();
    const lines: Array<[string, string]> = [];
    h = await startHarness({ flows: [echoFlow], handlers: {}, store, logger: recording(lines) });
    await h.restart({
      callbacks: {
        secret: SECRET,
        ...(storeDeadlineMs === undefined ? {} : { storeDeadlineMs }),
      },
    });
    const message = h.sandbox.control.injectInbound({ from: ADA, type: 'text', text: 'hello' });
    const request = receivedCallback(h.sandbox, message, SECRET, h.clock.now());
    return { store, lines, request };
  }

  it('should answer 503 with Retry-After at the deadline, and apply the late write once', async () => {
    const { store, lines, request } = await outage(300);
    store.stalled = true;
    const started = performance.now();
    const answer = await h.bot.handleCallback(request);
    const tookMs = performance.now() - started;
    expect(answer.status).toBe(503);
    expect(answer.headers).toEqual({ 'Retry-After': '5' });
    expect(answer.body).toEqual({
      code: 'unavailable',
      message: 'the callback could not be recorded; retry later',
      retryAfterSeconds: 5,
    });
    // The deadline, not the store, ended the wait (well inside a sender's 2 s).
    expect(tookMs).toBeGreaterThanOrEqual(290);
    expect(tookMs).toBeLessThan(2_000);
    expect(lines.filter(([level]) => level === 'warn')).toHaveLength(1);
    // The write lands after the answer: it is applied (once) ...
    store.stalled = false;
    store.land();
    await h.bot.idle();
    expect(h.sentTo(ADA)).toEqual(['text:echo: hello']);
    // ... and the sender's redelivery is a duplicate.
    const again = await h.bot.handleCallback(request);
    expect(again.status).toBe(200);
    await h.bot.idle();
    expect(h.sentTo(ADA)).toEqual(['text:echo: hello']);
    expect(lines.map(([, m]) => m)).toContain('the store answers again: callbacks are recorded');
  });

  it('should apply the redelivery once when the late write never lands', async () => {
    const { store, request } = await outage(200);
    store.stalled = true;
    const answers = [await h.bot.handleCallback(request), await h.bot.handleCallback(request)];
    expect(answers.map((a) => a.status)).toEqual([503, 503]);
    expect(store.held).toBe(2);
    store.drop();
    store.stalled = false;
    const again = await h.bot.handleCallback(request);
    expect(again.status).toBe(200);
    await h.bot.idle();
    expect(h.sentTo(ADA)).toEqual(['text:echo: hello']);
  });

  it('should refuse a deadline that is not a positive number of ms', async () => {
    h = await startHarness({ flows: [echoFlow], handlers: {} });
    await expect(h.restart({ callbacks: { secret: SECRET, storeDeadlineMs: 0 } })).rejects.toThrow(
      'callbacks.storeDeadlineMs must be a number of ms > 0, e.g. 1500 (got 0)',
    );
    await h.restart();
  });
});
