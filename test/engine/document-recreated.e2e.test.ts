import { describe, expect, it } from 'vitest';
import { ADA, startHarness } from './harness.js';

describe('engine: a conversation document created again', () => {
  it('should answer anew after its document was erased, though the old send records remain', async () => {
    const h = await startHarness();
    try {
      const first = await h.say(ADA, 'hello');
      await h.bot.idle();
      expect(h.sentTo(ADA)).toHaveLength(2);
      // An erasure (or expiry) removes the document; send records live on their own clock.
      await h.store.deleteConversation(first.conversationId);
      h.clock.advance(1_000);
      await h.say(ADA, 'hello');
      await h.bot.idle();
      expect(h.sentTo(ADA)).toHaveLength(4);
      expect(h.sentTo(ADA).slice(2)).toEqual(h.sentTo(ADA).slice(0, 2));
    } finally {
      await h.close();
    }
  });
});
