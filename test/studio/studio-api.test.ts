import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { DEFAULT_DEV_BOT } from '../../src/cli/dev-command.js';
import { startStudio, type Studio } from '../../src/studio/studio.js';
import { nameOf } from '../../src/studio/studio-bot.js';
import { waitUntil } from '../wait-until.js';

const ADA = encodeURIComponent('+15551230001');

describe('studio API', () => {
  let studio: Studio;
  beforeAll(async () => {
    studio = await startStudio({
      bot: DEFAULT_DEV_BOT,
      port: 0,
      clock: new ManualClock(),
      poll: false,
      watch: false,
    });
  }, 60_000);
  afterAll(async () => studio?.close());

  const call = async (
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }> => {
    const res = await fetch(`${studio.url}api${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'Content-Type': 'application/json' },
      ...(body === undefined
        ? {}
        : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('should name the bot by its folder, never by an absolute path', async () => {
    const bot = (await call('/state')).body['bot'] as Record<string, unknown>;
    expect(bot['name']).toBe('support-desk');
    expect(nameOf('/srv/bots/order-desk/bot.ts')).toBe('order-desk');
    expect(nameOf('/srv/bots/order-desk/index.js')).toBe('order-desk');
    expect(nameOf('/srv/flows/returns.yaml')).toBe('returns');
    expect(nameOf('/srv/bots/helpdesk.ts')).toBe('helpdesk');
  });

  it('should refuse bad input with a message that says what and where', async () => {
    expect(await call(`/customers/${ADA}/send`, { type: 'text', text: '  ' })).toEqual({
      status: 400,
      body: { error: 'text: type a message first' },
    });
    expect(
      (await call(`/customers/${ADA}/send`, { type: 'location', latitude: 91, longitude: 0 })).body[
        'error'
      ],
    ).toMatch(/^latitude: /);
    expect(await call('/customers/%2B19999999999/send', { type: 'text', text: 'hi' })).toEqual({
      status: 400,
      body: { error: 'no customer +19999999999' },
    });
    expect((await call(`/customers/${ADA}/takeover`, {})).body['error']).toMatch(
      /has no conversation yet/,
    );
    expect(await call('/clock/advance', { by: 'soon' })).toMatchObject({ status: 400 });
    expect(await call('/customers', { phone: '12345' })).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/^phone: /) },
    });
    expect(await call('/customers', { phone: '+15551230001' })).toEqual({
      status: 400,
      body: { error: 'a customer with phone +15551230001 already exists' },
    });
    expect(await call(`/customers/${ADA}/send`, '{"type":')).toEqual({
      status: 400,
      body: { error: 'the body is not valid JSON' },
    });
    expect((await fetch(`${studio.url}api/media/med_nope`)).status).toBe(404);
    expect((await call('/nowhere')).status).toBe(404);
  });

  it('should run a conversation, take it over, reply as a teammate and release it', async () => {
    await call(`/customers/${ADA}/send`, { type: 'text', text: 'hi' });
    await studio.runtime.settle();
    const detail = (await call(`/customers/${ADA}`)).body;
    expect(detail['doc']).toMatchObject({ state: 'welcome', humanOwned: false });
    expect(detail['window']).toMatchObject({ state: 'open' });
    const messages = detail['messages'] as { kind: string; view?: { type: string } }[];
    expect(messages.map((m) => m.view?.type ?? m.kind)).toEqual(['inbound', 'text', 'buttons']);
    expect((await call(`/customers/${ADA}/reply`, { text: 'hello' })).body['error']).toMatch(
      /take the conversation over/,
    );
    expect(await call(`/customers/${ADA}/takeover`, {})).toEqual({
      status: 200,
      body: { humanOwned: true },
    });
    expect((await call(`/customers/${ADA}/reply`, { text: 'Sam here' })).status).toBe(200);
    await studio.runtime.settle();
    const owned = (await call(`/customers/${ADA}`)).body;
    const last = (owned['messages'] as { kind: string; teammate?: boolean }[]).at(-1);
    expect(last).toMatchObject({ kind: 'outbound', teammate: true });
    expect(owned['timeline']).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'control', text: 'teammate replied: "Sam here"' }),
      ]),
    );
    await call(`/customers/${ADA}/release`, {});
    await studio.runtime.settle();
    const state = (await call('/state')).body;
    const ada = (state['customers'] as { phone: string; humanOwned: boolean; state: string }[])[0];
    expect(ada).toMatchObject({ phone: '+15551230001', humanOwned: false, state: 'welcome' });
    const flows = (
      state['bot'] as {
        flows: { id: string; mermaid: string; analytics: Record<string, unknown> }[];
      }
    ).flows;
    expect(flows[0]?.mermaid).toContain('s_welcome : welcome');
    expect(flows[0]?.analytics['welcome']).toMatchObject({ visits: 1, current: 1 });
  });

  it('should serve an uploaded file with its bytes, never as a page that runs', async () => {
    const html = '<script>alert(1)</script>';
    const grace = encodeURIComponent('+15551230002');
    const sent = await call(`/customers/${grace}/send`, {
      type: 'document',
      filename: 'page.html',
      mimeType: 'text/html',
      base64: Buffer.from(html).toString('base64'),
    });
    expect(sent.status).toBe(200);
    const detail = (await call(`/customers/${grace}`)).body;
    const doc = (detail['messages'] as { kind: string; media?: { id?: string } }[]).find(
      (m) => m.media,
    );
    const res = await fetch(`${studio.url}api/media/${doc?.media?.id ?? ''}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(html);
    expect(res.headers.get('content-security-policy')).toMatch(/^sandbox;/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('should push a change event to the page when something happens', async () => {
    const controller = new AbortController();
    const res = await fetch(`${studio.url}api/events`, { signal: controller.signal });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body!.getReader();
    let text = '';
    const reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += Buffer.from(value).toString();
      }
    })().catch(() => undefined);
    expect(await waitUntil(() => text.includes('event: hello'), 10_000)).toBe(true);
    await call('/clock/advance', { by: '1h' });
    expect(await waitUntil(() => text.includes('event: change'), 10_000)).toBe(true);
    controller.abort();
    await reading;
  });
});
