import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defineBot } from '../../src/bot/index.js';
import { defineFlow } from '../../src/flows/index.js';
import {
  createTestConversation,
  expectSent,
  type TestConversation,
} from '../../src/testing/index.js';

const ORDER_V1 = `id: order
version: 1
start: askName
states:
  askName:
    ask: { prompt: Your name?, var: name, goto: askSize }
  askSize:
    ask: { prompt: Size?, var: size, goto: done }
  done:
    say: 'Thanks {{name}}, size {{size}}'
    final: true
`;
/** askSize renamed chooseSize (migrate), and a new closing text. */
const ORDER_V2 = `id: order
version: 2
start: askName
migrate: { askSize: chooseSize }
states:
  askName:
    ask: { prompt: Your name?, var: name, goto: chooseSize }
  chooseSize:
    ask: { prompt: Which size?, var: size, goto: done }
  done:
    say: 'Thank you {{name}}: size {{size}}'
    final: true
`;
const BROKEN = `id: order
version: 3
start: askName
states:
  askName:
    ask: { promt: Your name?, var: name, goto: askName }
`;

const support = defineFlow({
  id: 'support',
  version: 1,
  start: 'hi',
  on: { shipped: { vars: ['trackingUrl'], say: 'Shipped: {{trackingUrl}}' } },
  states: {
    hi: {
      say: 'Support here.',
      menu: { body: 'Anything else?', options: [{ id: 'no', title: 'No', goto: 'bye' }] },
    },
    bye: { say: 'Bye.', final: true },
  },
});
const booking = defineFlow({
  id: 'booking',
  version: 1,
  start: 'when',
  vars: { day: 'Monday' },
  states: {
    when: { ask: { prompt: 'Booking for {{day}}. What time?', var: 'time', goto: 'ok' } },
    ok: { say: 'Booked.', final: true },
  },
});

describe('chat.bot', () => {
  let dir: string;
  let chat: TestConversation;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchboard-testkit-'));
    await writeFile(join(dir, 'order.yaml'), ORDER_V1);
    await writeFile(join(dir, 'order-v2.yaml'), ORDER_V2);
    await writeFile(join(dir, 'broken.yaml'), BROKEN);
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));
  afterEach(async () => chat.close());

  it('should reload flow files under a running conversation that keeps its answers', async () => {
    chat = await createTestConversation(defineBot({ flows: ['order.yaml'], dir }));
    await chat.say('hi');
    await chat.say('Ada');
    expectSent(chat).text('Size?');
    const result = await chat.bot.reloadFlows([pathToFileURL(join(dir, 'order-v2.yaml'))]);
    expect(result).toEqual({
      status: 'ok',
      flows: ['order'],
      entry: 'order',
      changed: [{ id: 'order', from: 1, to: 2 }],
    });
    // The renamed state takes the answer; the name given under v1 is kept.
    await chat.say('M');
    expect(chat.turn().map((m) => m.type === 'text' && m.text)).toEqual(['Thank you Ada: size M']);
    expect(chat.transcript()).toContain('flows reloaded: order v1 → v2');
  });

  it('should resolve relative flow paths against the bot directory and refuse a broken file', async () => {
    chat = await createTestConversation(defineBot({ flows: ['order.yaml'], dir }));
    await chat.say('hi');
    const refused = await chat.bot.reloadFlows(['broken.yaml']);
    expect(refused.status).toBe('invalid');
    expect(refused.status === 'invalid' && refused.message).toMatch(
      /broken\.yaml:6:\d+.*unknown key "promt" \(did you mean "prompt"\?\)/,
    );
    expect(await chat.state()).toBe('askName');
    expect(await chat.bot.reloadFlows(['order-v2.yaml'])).toMatchObject({ status: 'ok' });
  });

  it('should say what to use when the engine reload is given a file URL', async () => {
    chat = await createTestConversation(defineBot({ flows: ['order.yaml'], dir }));
    const url = pathToFileURL(join(dir, 'order-v2.yaml'));
    const result = chat.harness.bot.reloadFlows([url as never]);
    expect(result).toMatchObject({ status: 'invalid' });
    expect(result.status === 'invalid' && result.message).toContain(
      `flows[0] is the URL ${url.href}, not a compiled flow`,
    );
    expect(result.status === 'invalid' && result.message).toContain(
      'reloadFlowSources(bot, flows)',
    );
  });

  it('should enter the entry flow, the first one unless entry or the flow option says', async () => {
    const cases = [
      [defineBot({ flows: [support, booking] }), {}, 'support', 'Support here.'],
      [
        defineBot({ flows: [support, booking] }),
        { flow: 'booking' },
        'booking',
        'Booking for Monday. What time?',
      ],
      [
        defineBot({ flows: [support, booking], entry: 'booking' }),
        {},
        'booking',
        'Booking for Monday. What time?',
      ],
      [
        defineBot({ flows: [support, booking], entry: 'booking' }),
        { flow: 'support' },
        'support',
        'Support here.',
      ],
    ] as const;
    for (const [definition, options, flowId, first] of cases) {
      chat = await createTestConversation(definition, options);
      await chat.say('hello');
      expect(await chat.flow()).toBe(flowId);
      expect(chat.sent()[0]).toMatchObject({ type: 'text', text: first });
      await chat.close();
    }
    chat = await createTestConversation(defineBot({ flows: [support] }));
  });

  it('should notify, start a flow and forget the contact, each settled as a turn', async () => {
    chat = await createTestConversation(defineBot({ flows: [support, booking] }), {
      contact: { memory: { vip: true } },
    });
    await chat.say('hi');
    const notified = await chat.bot.notify(chat.phone, 'shipped', {
      trackingUrl: 'https://t.example/1',
    });
    expect(notified.status).toBe('accepted');
    expect(chat.turn()).toEqual([
      expect.objectContaining({ text: 'Shipped: https://t.example/1' }),
    ]);
    expect(await chat.state()).toBe('hi');

    await chat.bot.start(chat.phone, 'booking', { day: 'Friday' });
    expectSent(chat).text('Booking for Friday. What time?');
    expect(await chat.flow()).toBe('booking');
    await chat.say('10:00');
    expectSent(chat).text('Booked.');

    const forgotten = await chat.bot.forget(chat.phone);
    expect(forgotten).toMatchObject({ phone: chat.phone, memory: true });
    expect(forgotten.conversations).toHaveLength(1);
    expect(await chat.contactMemory()).toEqual({});
    expect(await chat.state()).toBeUndefined();
  });

  it('should start a flow for a contact who never wrote, holding its message until they do', async () => {
    chat = await createTestConversation(defineBot({ flows: [support, booking] }));
    const started = await chat.bot.start(chat.phone, 'booking', { day: 'Sunday' });
    expect(started).toMatchObject({ status: 'accepted', conversationId: `contact:${chat.phone}` });
    // Outside the 24-hour window a free-form message waits for the contact (window rule).
    expect(chat.sent()).toEqual([]);
    expect(await chat.flow()).toBe('booking');
    expect(await chat.state()).toBe('when');
  });
});
