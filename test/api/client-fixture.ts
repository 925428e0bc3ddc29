import { ManualClock } from '../../src/core/clock.js';
import { MessagingClient, type MessagingClientOptions } from '../../src/api/client.js';
import { MemoryLimiter } from '../../src/api/memory-limiter.js';
import type { SendRequest } from '../../src/messages/index.js';

export const API_KEY = 'sk_test_SUPERSECRET_0123456789abcdef';

/** A client on a manual clock whose sleep records the delay and advances the clock. */
export function makeClient(baseUrl: string, overrides: Partial<MessagingClientOptions> = {}) {
  const clock = new ManualClock(Date.parse('2026-03-01T12:00:00.000Z'));
  const limiter = new MemoryLimiter({ clock });
  const delays: number[] = [];
  const client = new MessagingClient({
    baseUrl,
    apiKey: API_KEY,
    clock,
    limiter,
    timeoutMs: 2_000,
    random: () => 0.5,
    sleep: (ms) => {
      delays.push(ms);
      clock.advance(ms);
      return Promise.resolve();
    },
    ...overrides,
  });
  return { client, clock, limiter, delays };
}

export const textRequest = (body = 'hello'): SendRequest => ({
  messaging_product: 'whatsapp',
  to: '+14155550123',
  type: 'text',
  text: { body },
});
