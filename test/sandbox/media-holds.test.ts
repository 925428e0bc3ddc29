import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorEnvelope } from '../../src/api/resources.js';
import { ADA, BOB, START, eventually, startSandbox, type Harness } from './helpers.js';

describe('sandbox media downloads: per-download holds and 8 streams per key and number', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startSandbox();
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(() => {
    h.sandbox.control.reset();
    h.clock.set(START + 3_600_000);
  });

  const mediaPath = (from: string, content: string): string =>
    h.sandbox.control.injectInbound({ type: 'image', from, media: { readyAfterMs: 0, content } })
      .media!.downloadPath!;

  it('should hold 8 downloads, refuse the 9th with 429 media_concurrency_exceeded, and leave other requests alone', async () => {
    const path = mediaPath(ADA, 'x'.repeat(50_000));
    const hold = h.sandbox.control.holdDownloads({ count: 8 });
    const open: Response[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await h.call(path);
      expect(res.status).toBe(200);
      open.push(res);
    }
    expect(h.sandbox.control.downloadHolds()).toEqual([
      { id: hold.id, mediaId: undefined, remaining: 0, waiting: 8 },
    ]);
    const ninth = await h.call(path);
    expect(ninth.status).toBe(429);
    expect(ErrorEnvelope.parse(await ninth.json()).code).toBe('media_concurrency_exceeded');
    // Other routes answer at once while the eight streams are open.
    expect((await h.call('/v1/conversations')).status).toBe(200);
    h.sandbox.control.releaseDownloads(hold.id);
    const bodies = await Promise.all(open.map((r) => r.text()));
    expect(bodies.every((b) => b.length === 50_000)).toBe(true);
    const after = await h.call(path);
    expect(after.status).toBe(200);
    expect((await after.text()).length).toBe(50_000);
  });

  it('should hold only the media id named, streaming other media at once', async () => {
    const held = mediaPath(ADA, 'held');
    const free = mediaPath(BOB, 'free');
    const hold = h.sandbox.control.holdDownloads({ mediaId: held.split('/').at(-1)! });
    const heldRes = await h.call(held);
    expect(heldRes.status).toBe(200);
    const freeRes = await h.call(free);
    expect(await freeRes.text()).toBe('free');
    expect(h.sandbox.control.downloadHolds()[0]?.waiting).toBe(1);
    h.sandbox.control.releaseDownloads(hold.id);
    expect(await heldRes.text()).toBe('held');
  });

  it('should free the slot of a held download whose client goes away', async () => {
    const path = mediaPath(ADA, 'y'.repeat(1_000));
    h.sandbox.control.holdDownloads({ count: 8 });
    const aborts: AbortController[] = [];
    // Kept referenced: undici cancels the body of a garbage-collected Response, which
    // would end a held download before the test aborts it (a flake under the full suite).
    const open: Response[] = [];
    for (let i = 0; i < 8; i++) {
      const controller = new AbortController();
      aborts.push(controller);
      const res = await fetch(`${h.url}${path}`, {
        headers: { authorization: `Bearer ${h.sandbox.config.keys[0]!.key}` },
        signal: controller.signal,
      });
      expect(res.status).toBe(200);
      open.push(res);
    }
    expect((await h.call(path)).status).toBe(429);
    aborts[0]!.abort();
    await eventually(() => h.sandbox.control.downloadHolds()[0]?.waiting === 7);
    const next = await h.call(path);
    expect(next.status).toBe(200);
    expect((await next.text()).length).toBe(1_000);
    for (const a of aborts) a.abort();
    await eventually(() => h.sandbox.control.downloadHolds()[0]?.waiting === 0);
    open.length = 0; // referenced until here
  });

  it('should manage holds through the control routes', async () => {
    const path = mediaPath(ADA, 'z');
    const created = await h.call('/sandbox/media/holds', { key: null, body: { count: 1 } });
    expect(created.status).toBe(201);
    const { hold } = (await created.json()) as { hold: { id: string; remaining: number } };
    expect(hold.remaining).toBe(1);
    const res = await h.call(path);
    const listed = (await (await h.call('/sandbox/media/holds', { key: null })).json()) as {
      items: { id: string; waiting: number }[];
    };
    expect(listed.items).toEqual([{ id: hold.id, remaining: 0, waiting: 1 }]);
    const released = await h.call(`/sandbox/media/holds/${hold.id}`, {
      key: null,
      method: 'DELETE',
    });
    expect(released.status).toBe(200);
    expect(await res.text()).toBe('z');
    expect(
      (await h.call(`/sandbox/media/holds/${hold.id}`, { key: null, method: 'DELETE' })).status,
    ).toBe(404);
    expect((await h.call('/sandbox/media/holds', { key: null, body: { count: 0 } })).status).toBe(
      400,
    );
  });
});
