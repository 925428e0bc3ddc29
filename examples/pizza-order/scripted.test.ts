import { afterEach, describe, expect, it } from 'vitest';
import {
  createTestConversation,
  expectSent,
  scripted,
  type TestConversation,
} from 'switchboard/testing';

// The example of docs/understanding.md ("Testing with scripted()"), kept compiling here.
describe('pizza-order (docs example)', () => {
  let chat: TestConversation;
  afterEach(async () => chat.close());

  it('should take a whole order in one sentence and correct it', async () => {
    chat = await createTestConversation('examples/pizza-order', {
      understander: scripted({
        '2 large pepperoni to 5 Main St': {
          intent: 'order',
          slots: { qty: 2, size: 'large', pizza: 'pepperoni', address: '5 Main St' },
        },
        'no, make it three': { correction: true, slots: { qty: 3 } },
      }),
    });
    await chat.say('2 large pepperoni to 5 Main St');
    expectSent(chat).buttons(['Yes, place it', 'Start again']);
    await chat.say('no, make it three');
    expect(await chat.vars()).toMatchObject({ qty: 3 });
    expect(chat.understood().map((u) => u.intent ?? 'correction')).toEqual(['order', 'correction']);
  });
});
