import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { closeServer, createRunApp, listenOn, type Listening } from '../../src/cli/run-server.js';
import { compileFlow, defineFlow } from '../../src/flows/index.js';
import { eventsRouter } from '../../src/ingest/events-endpoint.js';
import { createLogger } from '../../src/log/logger.js';
import { ADA, HOUR, startHarness, type Harness } from '../engine/harness.js';

const TOKEN = 'evt_test_token_0123456789abcdef';

const ordersFlow = compileFlow(
  defineFlow({
    id: 'orders',
    version: 1,
    start: 'welcome',
    on: {
      shipped: {
        vars: ['trackingUrl'],
        say: {
          text: 'Shipped! Track it at {{trackingUrl}}',
          window: { onClosed: 'template', template: { name: 'hello_world', language: 'en' } },
        },
      },
    },
    states: {
      welcome: {
        menu: { body: 'Hi!', options: [{ id: 'bye', title: 'Bye', goto: 'bye' }] },
      },
      bye: { say: 'Bye.', final: true },
    },
  }),
);

describe('POST /events (run server)', () => {
  let h: Harness;
  let server: Listening;
  let logs: string;
  afterEach(async () => {
    await closeServer(server.server);
    await h.close();
  });

  async function serve(): Promise<void> {
    h = await startHarness({ flows: [ordersFlow] });
    logs = '';
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        logs += chunk.toString();
        done();
      },
    });
    const logger = createLogger({ level: 'debug', format: 'json', stream, secrets: [TOKEN] });
    const app = createRunApp({
      probe: { isDraining: () => false, readiness: () => Promise.resolve({ status: 'ready' }) },
      events: eventsRouter({ bot: h.bot, token: TOKEN, logger }),
    });
    server = await listenOn(app, '127.0.0.1', 0);
  }

  const post = (body: unknown, token = TOKEN): Promise<Response> =>
    fetch(`${server.url}/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  const shipped = {
    id: 'order-17-shipped',
    contact: ADA,
    event: 'shipped',
    data: { trackingUrl: 'https://track.example/17' },
  };

  it('should produce the flow message once when the same event is posted twice', async () => {
    await serve();
    await h.say(ADA, 'hi');
    await h.bot.idle();
    const first = await post(shipped);
    const second = await post(shipped);
    await h.bot.idle();
    expect(first.status).toBe(202);
    expect(await first.json()).toMatchObject({ status: 'accepted', eventId: shipped.id });
    expect(second.status).toBe(200);
    expect(await second.json()).toMatchObject({ status: 'duplicate' });
    expect(h.sentTo(ADA)).toEqual([
      'button:Hi!',
      'text:Shipped! Track it at https://track.example/17',
    ]);
  });

  it('should send the template outside the window, once', async () => {
    await serve();
    await h.say(ADA, 'hi');
    await h.bot.idle();
    h.clock.advance(25 * HOUR);
    await post(shipped);
    await post(shipped);
    await h.bot.idle();
    expect(h.sentTo(ADA)).toEqual(['button:Hi!', 'template:hello_world']);
  });

  it('should refuse a wrong or missing token with 401 and never log the token', async () => {
    await serve();
    const wrong = await post(shipped, 'not-the-token-at-all');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
    const missing = await fetch(`${server.url}/events`, { method: 'POST', body: '{}' });
    expect(missing.status).toBe(401);
    await post({ ...shipped, contact: 'nope' });
    expect(logs).not.toContain(TOKEN);
    expect(h.sandbox.control.sent()).toEqual([]);
  });

  it('should name the field path of an invalid body', async () => {
    await serve();
    const bad = await post({ id: 'x', contact: '+1', event: 'shipped', data: { n: { deep: 1 } } });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { code: string; issues: { path: string }[] };
    expect(body.code).toBe('invalid_event');
    expect(body.issues.map((i) => i.path)).toEqual(['contact', 'data.n']);
    const both = await post({ id: 'y', contact: ADA, event: 'shipped', start: { flow: 'orders' } });
    expect(((await both.json()) as { message: string }).message).toMatch(
      /exactly one of event, start/,
    );
    const notJson = await post('{not json');
    expect(notJson.status).toBe(400);
    const unknownFlow = await post({ id: 'z', contact: ADA, start: { flow: 'nope' } });
    expect(unknownFlow.status).toBe(400);
    expect(await unknownFlow.json()).toMatchObject({ issues: [{ path: 'start.flow' }] });
  });

  it('should start a flow for a contact, holding its free-form message for the window', async () => {
    await serve();
    const res = await post({
      id: 'start-1',
      contact: { phone: ADA, name: 'Ada' },
      start: { flow: 'orders' },
    });
    await h.bot.idle();
    expect(res.status).toBe(202);
    const { conversationId } = (await res.json()) as { conversationId: string };
    // The contact never wrote: no window, the menu waits (default window rule `wait`).
    expect(h.sentTo(ADA)).toEqual([]);
    expect(await h.bot.inspect(conversationId)).toMatchObject({ state: 'welcome', heldSends: 1 });
  });
});
