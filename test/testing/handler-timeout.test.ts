import { afterEach, describe, expect, it } from 'vitest';
import { defineBot } from '../../src/bot/index.js';
import type { Handler } from '../../src/engine/types.js';
import { defineFlow } from '../../src/flows/index.js';
import { TestClock } from '../../src/testing/test-clock.js';
import {
  createTestConversation,
  expectSent,
  type TestConversation,
} from '../../src/testing/index.js';

const flow = defineFlow({
  id: 'slow-lookup',
  version: 1,
  start: 'lookup',
  states: {
    lookup: {
      call: {
        handler: 'lookup',
        outcomes: { found: 'found' },
        onTimeout: 'slow',
        onError: 'broken',
        timeout: '10s',
      },
    },
    found: { say: 'Found it.', final: true },
    slow: { say: 'The lookup is slow today.', final: true },
    broken: { say: 'The lookup failed.', final: true },
  },
});

describe('test kit: handler timeouts on the fake clock', () => {
  let chat: TestConversation;
  afterEach(async () => chat.close());

  it('should return from say while a handler hangs and time it out when the clock advances', async () => {
    const aborted: unknown[] = [];
    // Never answers; notes the abort signal the engine gives it.
    const lookup: Handler = ({ signal }) =>
      new Promise(() => signal.addEventListener('abort', () => aborted.push(signal.reason)));
    chat = await createTestConversation(defineBot({ flows: [flow], handlers: { lookup } }), {
      handlerWaitMs: 200,
    });
    await chat.say('hello');
    expectSent(chat).nothing();
    await chat.advance('9s');
    expect(chat.sent()).toEqual([]);
    expect(aborted).toEqual([]);
    await chat.advance('1s');
    expectSent(chat).text('The lookup is slow today.');
    expect(aborted).toHaveLength(1);
    expect(await chat.state()).toBe('slow');
  });

  it('should still wait for a handler that answers in real time', async () => {
    const lookup: Handler = () =>
      new Promise((resolve) => setTimeout(() => resolve({ outcome: 'found' }), 30));
    chat = await createTestConversation(defineBot({ flows: [flow], handlers: { lookup } }));
    await chat.say('hello');
    expectSent(chat).text('Found it.');
  });
});

describe('TestClock', () => {
  it('should fire timers in time order when advanced past them, and not cancelled ones', () => {
    const clock = new TestClock(0);
    const fired: string[] = [];
    clock.setTimer(300, () => fired.push('c'));
    clock.setTimer(100, () => fired.push('a'));
    const cancel = clock.setTimer(200, () => fired.push('cancelled'));
    clock.setTimer(100, () => fired.push('b'));
    cancel();
    clock.advance(99);
    expect(fired).toEqual([]);
    clock.advance(1);
    expect(fired).toEqual(['a', 'b']);
    clock.set(1_000);
    expect(fired).toEqual(['a', 'b', 'c']);
    expect(clock.pendingTimers).toBe(0);
  });
});
