import { afterEach, describe, expect, it } from 'vitest';
import { createTestConversation, type TestConversation } from '../../src/testing/index.js';

const BOT = 'test/fixtures/understand/phone-ask';

/** docs/understanding.md, Slots: a national number typed at an ask with `validate: phone`. */
describe('a phone ask and a national number', () => {
  let chat: TestConversation;
  afterEach(async () => chat.close());

  it('should take the E.164 number the builtin reads, in a flow that uses understanding', async () => {
    chat = await createTestConversation(BOT, { flow: 'phone-ask' });
    await chat.say('hi');
    await chat.say('07911 245678');
    expect(await chat.vars()).toMatchObject({ phone: '+447911245678' });
    expect(await chat.state()).toBe('done');
    const heard = chat.understood().find((u) => u.text === '07911 245678');
    expect(heard?.slots).toMatchObject({ phone: '+447911245678' });
  });

  it('should refuse it with the retry in a flow without understanding', async () => {
    chat = await createTestConversation(BOT, { flow: 'phone-plain' });
    await chat.say('hi');
    await chat.say('07911 245678');
    expect(await chat.vars()).not.toHaveProperty('phone', '+447911245678');
    expect(await chat.state()).toBe('askPhone');
    expect(chat.transcript()).toContain('Please give your number with its country code');
  });

  it('should capture a number typed with its country code without understanding it', async () => {
    chat = await createTestConversation(BOT, { flow: 'phone-ask' });
    await chat.say('hi');
    await chat.say('+44 7911 245678');
    expect(await chat.vars()).toMatchObject({ phone: '+447911245678' });
    // The first message is understood (the flow starts on it); the valid answer is not.
    expect(chat.understood().map((u) => u.text)).toEqual(['hi']);
  });
});
