import { afterEach, describe, expect, it } from 'vitest';
import { defineBot } from '../../src/bot/index.js';
import { defineFlow } from '../../src/flows/index.js';
import type { Logger } from '../../src/log/logger.js';
import {
  captureLogs,
  createTestConversation,
  expectSent,
  type TestConversation,
} from '../../src/testing/index.js';

const orders = defineFlow({
  id: 'orders',
  version: 1,
  start: 'look',
  onError: 'oops',
  states: {
    look: { call: { handler: 'lookup', outcomes: { found: 'found' } } },
    found: { say: 'Found it.', final: true },
    oops: { say: 'Sorry, something broke: {{error.code}}', final: true },
  },
});

describe('chat.logs', () => {
  let chat: TestConversation;
  afterEach(async () => chat.close());

  it('should show one error line when a handler throws and the flow takes onError', async () => {
    const bot = defineBot({
      flows: [orders],
      handlers: {
        lookup: () => {
          throw new Error('database down');
        },
      },
    });
    chat = await createTestConversation(bot);
    await chat.say('where is my order?');
    expectSent(chat).text('Sorry, something broke: error');
    expect(chat.logs({ level: 'error' })).toEqual([
      {
        level: 'error',
        message: 'flow took its error path',
        conversationId: expect.any(String),
        flow: 'orders',
        state: 'look',
        contactId: expect.any(String),
        code: 'error',
        detail: 'handler lookup: database down',
        target: 'oops',
      },
    ]);
    expect(chat.logs({ level: 'warn', message: 'handler failed' })).toEqual([
      expect.objectContaining({ handler: 'lookup', error: 'database down' }),
    ]);
  });

  it('should show no error line on the happy path and filter by level and message', async () => {
    const bot = defineBot({ flows: [orders], handlers: { lookup: () => ({ outcome: 'found' }) } });
    chat = await createTestConversation(bot);
    await chat.say('where is my order?');
    expectSent(chat).text('Found it.');
    expect(chat.logs({ level: 'error' })).toEqual([]);
    expect(chat.logs({ message: /^bot started$/ })).toHaveLength(1);
    expect(chat.logs({ level: ['error', 'warn'] })).toEqual([]);
    expect(chat.logs().length).toBeGreaterThan(1);
  });

  it('should keep only lines at or above logLevel and copy every line to logger', async () => {
    const seen: string[] = [];
    const logger: Logger = {
      error: (m) => void seen.push(`error ${m}`),
      warn: (m) => void seen.push(`warn ${m}`),
      info: (m) => void seen.push(`info ${m}`),
      debug: () => undefined,
      child: () => logger,
    };
    const bot = defineBot({ flows: [orders], handlers: { lookup: () => ({ outcome: 'nope' }) } });
    chat = await createTestConversation(bot, { logLevel: 'warn', logger });
    await chat.say('hi');
    expect(chat.logs().map((e) => e.level)).toEqual(['error']);
    expect(seen).toContain('info bot started');
    expect(seen).toContain('error flow took its error path');
  });
});

describe('captureLogs', () => {
  it('should keep structured entries with the metadata of child loggers', () => {
    const logs = captureLogs({ level: 'info' });
    logs.logger.child({ worker: 'w1' }).warn('slow', { ms: 12 });
    logs.logger.debug('hidden');
    expect(logs.entries()).toEqual([{ level: 'warn', message: 'slow', worker: 'w1', ms: 12 }]);
  });
});
