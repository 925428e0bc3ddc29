import { describe, expect, it } from 'vitest';
import { MessagingClient } from '../../src/api/client.js';
import { MemoryLimiter } from '../../src/api/memory-limiter.js';
import { ManualClock } from '../../src/core/clock.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { NUMBERS, workspaceConfig } from './deployment-fixture.js';
import { VirtualTime } from './virtual-time.js';

const MIN = 60_000;

describe('the workspace budget of a deployment (three numbers, one strict API)', () => {
  it('should keep three saturated numbers at 0 × 429, ≥ 95% of 1,200/min, each ≥ its fair share', async () => {
    const clock = new ManualClock(Date.parse('2026-03-02T09:00:00Z'));
    const sandbox = createSandbox({ config: workspaceConfig(), clock, tickMs: 0 });
    const { url } = await sandbox.listen();
    const three = NUMBERS.slice(0, 3);
    for (const n of three)
      sandbox.control.injectInbound({
        type: 'text',
        from: '+15551230001',
        number: n.id,
        text: 'hi',
      });
    const time = new VirtualTime(clock, three.length);
    // One limiter per process: what a deployment gives all its numbers.
    const limiter = new MemoryLimiter({ clock });
    const start = clock.now();
    const end = start + 2 * MIN;
    const outcomes = new Map<string, number>();
    try {
      await Promise.all(
        three.map(async (n) => {
          const client = new MessagingClient({
            baseUrl: url,
            apiKey: n.key,
            clock,
            limiter,
            sleep: time.sleep,
            identity: { numberId: n.id, workspaceId: 'ws_acme' },
          });
          while (clock.now() < end) {
            const r = await client.send({
              messaging_product: 'whatsapp',
              to: '+15551230001',
              type: 'text',
              text: { body: `from ${n.id}` },
            });
            const key = r.status === 'rejected' ? `rejected:${r.error.code}` : r.status;
            outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
            await time.sleep(30); // the request's latency as the API saw it
          }
          time.done();
        }),
      );
    } finally {
      await sandbox.close();
    }
    expect([...outcomes.keys()]).toEqual(['accepted']);
    const sent = sandbox.control
      .sent()
      .map((s) => ({ n: s.numberId, at: Date.parse(s.acceptedAt) }));
    // The second minute (the first is the ramp-up), and a window across both.
    for (const from of [start + MIN - 1, start + MIN / 2]) {
      const window = sent.filter((s) => s.at >= from && s.at < from + MIN);
      const per = three.map((n) => window.filter((s) => s.n === n.id).length);
      expect(window.length).toBeGreaterThanOrEqual(0.95 * 1_200);
      expect(window.length).toBeLessThanOrEqual(1_200);
      for (const count of per) expect(count).toBeGreaterThanOrEqual(0.9 * 400);
      if (process.env['SB_FIGURES'] !== undefined) console.log(from - start, window.length, per);
    }
  }, 60_000);
});
