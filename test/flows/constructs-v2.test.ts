import { describe, expect, it } from 'vitest';
import type { Effect } from '../../src/flows/contract.js';
import {
  compileFlow,
  defineFlow,
  evaluateCondition,
  migrateSnapshot,
  parseCondition,
  type FlowDefinitionInput,
} from '../../src/flows/index.js';
import { createActor } from 'xstate';
import { drive, inbound, input, summary, tap, text } from './helpers.js';

const timers = (effects: readonly Effect[]): string[] =>
  effects.flatMap((e) => (e.kind === 'timer.start' ? [`${e.name}/${e.delayMs}`] : []));

describe('conditions', () => {
  const ok = (src: string, vars: Record<string, unknown>): boolean => {
    const r = parseCondition(src);
    if (r.status !== 'ok') throw new Error(r.message);
    return evaluateCondition(r.condition, (n) => vars[n] as never);
  };
  it('should evaluate comparison, membership, presence, not, and, or, parentheses', () => {
    expect(ok('size == "large" and n > 2', { size: 'large', n: 3 })).toBe(true);
    expect(ok('size == "large" and n > 2', { size: 'large', n: 2 })).toBe(false);
    expect(ok('lang in ["fr", "de"] or vip', { lang: 'en', vip: true })).toBe(true);
    expect(ok('lang not in ["fr"]', { lang: 'fr' })).toBe(false);
    expect(ok('email', { email: '' })).toBe(false);
    expect(ok('not email', {})).toBe(true);
    expect(ok('not (a or b) and c >= 1.5', { a: false, b: null, c: 1.5 })).toBe(true);
    expect(ok('contact.locale == "fr"', { 'contact.locale': 'fr' })).toBe(true);
    expect(ok('n < "x"', { n: 1 })).toBe(false); // different types never order
  });
  it('should refuse what is not the language, saying where', () => {
    expect(parseCondition('a = 1')).toMatchObject({ status: 'error', offset: 2 });
    expect(parseCondition('a && b')).toMatchObject({
      status: 'error',
      message: '"&&" is written and',
    });
    expect(parseCondition('a == ')).toMatchObject({ status: 'error' });
    expect(parseCondition('process.exit()')).toMatchObject({ status: 'error' });
  });
});

describe('set, option set and branch', () => {
  it('should assign on entry, copy typed values, and branch on them', () => {
    const d = drive({
      id: 'b',
      version: 1,
      start: 'pick',
      vars: { size: null, n: 1, copy: null },
      states: {
        pick: {
          menu: {
            body: 'Size?',
            options: [
              { id: 's', title: 'Small', set: { size: 'small' }, goto: 'count' },
              { id: 'l', title: 'Large', set: { size: 'large', n: 5 }, goto: 'count' },
            ],
          },
        },
        count: {
          set: { copy: '{{n}}', label: 'n={{n}}' },
          branch: [{ if: 'size == "large" and copy > 2', goto: 'big' }, { goto: 'small' }],
        },
        big: { say: 'Big {{label}}', final: true },
        small: { say: 'Small {{label}}', final: true },
      },
    });
    d.send(text('hi'));
    expect(summary(d.send(tap('v1.pick.l')))).toEqual(['text:Big n=5', 'end']);
    expect(d.context().vars).toMatchObject({ size: 'large', n: 5, copy: 5, label: 'n=5' });
  });

  it('should pick options by typed number, title or keyword, and not when typed is off', () => {
    const flow: FlowDefinitionInput = {
      id: 'n',
      version: 1,
      start: 'm',
      states: {
        m: {
          menu: {
            body: 'Pick',
            options: [
              { id: 'a', title: 'Crédit', goto: 'a' },
              { id: 'b', title: 'Other', keywords: ['misc'], goto: 'b' },
            ],
          },
          otherwise: { say: 'Tap one' },
        },
        a: { say: 'A', final: true },
        b: { say: 'B', final: true },
      },
    };
    for (const [typed, target] of [
      ['2', 'b'],
      ['1.', 'a'],
      ['CREDIT', 'a'],
      ['misc', 'b'],
    ] as const) {
      const d = drive(flow);
      d.send(text('hi'));
      d.send(text(typed));
      expect(d.state()).toBe(target);
    }
    const menu = {
      body: 'Pick',
      typed: false,
      options: [
        { id: 'a', title: 'Crédit', goto: 'a' },
        { id: 'b', title: 'Other', goto: 'b' },
      ],
    };
    const off = drive({
      ...flow,
      states: { ...flow.states, m: { menu, otherwise: { say: 'Tap one' } } },
    });
    off.send(text('hi'));
    expect(summary(off.send(text('1')))).toEqual(['text:Tap one', 'menu:button']);
    expect(off.state()).toBe('m');
  });
});

describe('typed capture', () => {
  const flow = (kind: string) =>
    defineFlow({
      id: 'c',
      version: 1,
      start: 'ask',
      states: {
        ask: {
          ask: {
            prompt: 'Send it',
            retry: 'Wrong kind',
            var: 'x',
            validate: { kind } as never,
            goto: 'done',
          },
        },
        done: { say: 'ok', final: true },
      },
    });
  it('should keep a media answer with id, mime type, caption and availability; retry text', () => {
    const d = drive(flow('image'));
    d.send(text('hi'));
    expect(summary(d.send(text('a photo')))).toEqual(['text:Wrong kind']);
    expect(
      summary(d.send(inbound({ type: 'document', media: { availability: 'ready', id: 'd1' } }))),
    ).toEqual(['text:Wrong kind']);
    d.send(
      inbound({
        type: 'image',
        media: { availability: 'ready', id: 'med_1', mimeType: 'image/png', caption: 'front' },
      }),
    );
    expect(d.state()).toBe('done');
    expect(d.context().vars).toMatchObject({
      x: 'med_1',
      xMimeType: 'image/png',
      xCaption: 'front',
      xAvailability: 'ready',
    });
  });
  it('should capture a location, a contact card and a time', () => {
    const loc = drive(flow('location'));
    loc.send(text('hi'));
    loc.send(
      inbound({ type: 'location', location: { latitude: 1.5, longitude: -2, name: 'Here' } }),
    );
    expect(loc.context().vars).toMatchObject({
      x: '1.5,-2',
      xLatitude: 1.5,
      xLongitude: -2,
      xName: 'Here',
      xAddress: null,
    });
    const card = drive(flow('contact'));
    card.send(text('hi'));
    card.send(
      inbound({ type: 'contacts', contacts: [{ name: 'Grace', phones: ['+15550002222'] }] }),
    );
    expect(card.context().vars).toMatchObject({ x: 'Grace', xPhone: '+15550002222' });
    const time = drive(flow('time'));
    time.send(text('hi'));
    time.send(text('25:00'));
    expect(time.state()).toBe('ask');
    time.send(text('9.30'));
    expect(time.context().vars).toMatchObject({ x: '09:30' });
  });
});

describe('pacing', () => {
  it('should pause at a delay on a durable timer and go on (then goto) when it fires', () => {
    const d = drive({
      id: 'p',
      version: 1,
      start: 's',
      states: {
        s: { say: ['One', { delay: '2s' }, 'Two', { text: 'Three', delay: '1s' }], goto: 'end' },
        end: { say: 'Done', final: true },
      },
    });
    const first = d.send(text('hi'));
    expect(summary(first)).toEqual(['text:One', 'timer.start']);
    expect(timers(first)).toEqual(['delay:s@2/2000']);
    expect(d.state()).toBe('s');
    const second = d.send({ type: 'timer.fired', name: 'delay:s@2' });
    expect(summary(second)).toEqual(['text:Two', 'timer.start']);
    const name = timers(second)[0]?.split('/')[0] ?? '';
    expect(summary(d.send({ type: 'timer.fired', name }))).toEqual([
      'text:Three',
      'text:Done',
      'end',
    ]);
  });

  it('should answer a burst of quick messages once, as one text', () => {
    const d = drive({
      id: 'd',
      version: 1,
      start: 'q',
      vars: {},
      states: {
        q: { ask: { prompt: 'Tell me', var: 'story', goto: 'done' }, debounce: '3s' },
        done: { say: 'You said: {{story}}', final: true },
      },
    });
    d.send(text('hi'));
    const a = d.send(text('my order'));
    const b = d.send(text('never came'));
    expect(timers(a)).toEqual(timers(b)); // the same timer, rescheduled
    expect(
      summary(d.send({ type: 'timer.fired', name: timers(a)[0]?.split('/')[0] ?? '' })),
    ).toEqual(['timer.cancel', 'text:You said: my order\nnever came', 'end']);
  });

  it('should nudge up to N times, then give up', () => {
    const d = drive({
      id: 'nudge',
      version: 1,
      start: 'm',
      states: {
        m: {
          menu: { body: 'Pick', options: [{ id: 'a', title: 'A', goto: 'bye' }] },
          timeout: { after: '10m', nudge: 'Still there?', nudges: 2, goto: 'bye' },
        },
        bye: { say: 'Bye', final: true },
      },
    });
    d.send(text('hi'));
    for (let i = 0; i < 2; i++) {
      const timer = d.context().timer ?? '';
      expect(summary(d.send({ type: 'timer.fired', name: timer }))).toEqual([
        'text:Still there?',
        'timer.start',
      ]);
    }
    expect(summary(d.send({ type: 'timer.fired', name: d.context().timer ?? '' }))).toEqual([
      'timer.cancel',
      'text:Bye',
      'end',
    ]);
  });
});

describe('contact memory, locales and the error path', () => {
  it('should read memory given at start, write it back through memory.set, and speak the locale', () => {
    const flow = compileFlow(
      defineFlow({
        id: 'mem',
        version: 1,
        start: 'hi',
        locales: ['en', 'fr'],
        contact: { locale: null, visits: 0 },
        translations: { fr: { 'Hi {{contact.name}}': 'Salut {{contact.name}}' } },
        states: {
          hi: {
            say: 'Hi {{contact.name}}',
            set: { 'contact.visits': 1, 'contact.name': 'Ana B' },
            final: true,
          },
        },
      }),
    );
    const actor = createActor(flow.machine, {
      input: { ...input, memory: { locale: 'fr', visits: 3 } },
    }).start();
    actor.send(text('hello'));
    const out = actor.getSnapshot().context.outbox as Effect[];
    expect(summary(out)).toEqual(['text:Salut Ana B', 'end', 'memory.set']);
    expect(out.at(-1)).toMatchObject({
      kind: 'memory.set',
      values: { locale: 'fr', visits: 1, name: 'Ana B' },
    });
    // Without a remembered locale: the flow's first locale.
    const en = createActor(flow.machine, { input }).start();
    en.send(text('hello'));
    expect(summary(en.getSnapshot().context.outbox as Effect[])[0]).toBe('text:Hi Ana B');
  });

  it('should take the logged error path on an unknown outcome and on a handler error', () => {
    const d = drive({
      id: 'e',
      version: 1,
      start: 'c',
      onError: 'oops',
      states: {
        c: { call: { handler: 'h', outcomes: { ok: 'done' } } },
        done: { say: 'Done', final: true },
        oops: { say: 'Oops {{error.code}}', final: true },
      },
    });
    d.send(text('hi'));
    const out = d.send({
      type: 'handler.error',
      requestId: 'c#1',
      handler: 'h',
      reason: 'error',
      message: 'boom',
    });
    expect(summary(out)).toEqual(['flow.error', 'text:Oops error', 'end']);
    expect(out[0]).toMatchObject({ kind: 'flow.error', state: 'c', code: 'error', target: 'oops' });
  });
});

describe('flow versions', () => {
  const v2 = defineFlow({
    id: 'v',
    version: 2,
    start: 'start',
    vars: { added: 'yes' },
    migrate: { askSize: 'chooseSize' },
    states: {
      start: { menu: { body: 'Hi', options: [{ id: 'a', title: 'A', goto: 'chooseSize' }] } },
      chooseSize: { menu: { body: 'Size?', options: [{ id: 's', title: 'S', goto: 'start' }] } },
    },
  });
  const snap = (value: string) => ({
    status: 'active',
    value,
    context: { vars: { old: 1 }, seq: 4, outbox: [], timer: 'askSize@3' },
  });
  it('should keep a conversation whose state still exists, adding new variables', () => {
    expect(migrateSnapshot(v2, snap('start'))).toMatchObject({
      value: 'start',
      context: { vars: { old: 1, added: 'yes' } },
    });
  });
  it('should send a conversation whose state was removed to migrate[old], else start, at its next event', () => {
    const moved = migrateSnapshot(v2, snap('askSize')) as {
      value: string;
      context: { resumeAt: string };
    };
    expect(moved).toMatchObject({ value: '_idle', context: { resumeAt: 'chooseSize' } });
    expect(migrateSnapshot(v2, snap('gone'))).toMatchObject({ context: { resumeAt: 'start' } });
    // A real snapshot of v1 waiting in askSize, restored into v2: the next event (even a
    // stale timer of the removed state) moves it on.
    const v1 = drive({
      id: 'v',
      version: 1,
      start: 'start',
      states: {
        start: { menu: { body: 'Hi', options: [{ id: 'a', title: 'A', goto: 'askSize' }] } },
        askSize: {
          ask: { prompt: 'Size?', var: 'size', goto: 'start' },
          timeout: { after: '5m', goto: 'start' },
        },
      },
    });
    v1.send(text('hi'));
    v1.send(tap('v1.start.a'));
    const persisted = JSON.parse(JSON.stringify(v1.actor.getPersistedSnapshot())) as unknown;
    const machine = compileFlow(v2).machine;
    const actor = createActor(machine, {
      input,
      snapshot: migrateSnapshot(v2, persisted) as never,
    }).start();
    actor.send({ type: 'timer.fired', name: v1.context().timer ?? '' });
    expect(actor.getSnapshot().value).toBe('chooseSize');
    expect(summary(actor.getSnapshot().context.outbox as Effect[])).toEqual(['menu:button']);
  });
});
