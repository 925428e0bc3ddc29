/**
 * docs/understanding.md, "Say what the bot does not do": the page's flow, run with the
 * builtin understander, sends a near miss ("pay my water bill") to `otherwise` and still
 * acts on the intent; the proposal says `outOfScope`, which the studio and metrics name.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { defineBot } from '../../src/bot/define-bot.js';
import { defineFlow, parseFlowText, type FlowDefinitionInput } from '../../src/flows/index.js';
import { describeUnderstood } from '../../src/studio/session-recorder.js';
import { createTestConversation, type TestConversation } from '../../src/testing/index.js';
import { createBuiltinUnderstander } from '../../src/understand/builtin/index.js';
import { understandingOutcome } from '../../src/understand/understanding-outcome.js';

/** The page's flow block that declares `outOfScope`. */
function docsFlow(): FlowDefinitionInput {
  const page = readFileSync('docs/understanding.md', 'utf8');
  const block = [...page.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((m) => m[1] ?? '')
    .find((b) => b.includes('outOfScope:'));
  if (block === undefined) throw new Error('no outOfScope block in docs/understanding.md');
  const parsed = parseFlowText(block, 'docs.yaml');
  if (parsed.status === 'error') throw new Error('the docs block does not load');
  return parsed.flow;
}

describe('understand.outOfScope in a flow', () => {
  let chat: TestConversation | undefined;
  afterEach(async () => chat?.close());

  const run = async (def: FlowDefinitionInput, text: string): Promise<string[]> => {
    chat = await createTestConversation(defineBot({ flows: [defineFlow(def)] }), {
      understander: createBuiltinUnderstander(),
    });
    await chat.say('hi');
    chat.turn();
    await chat.say(text);
    return chat.turn().map((m) => (m.type === 'text' ? m.text : m.type));
  };

  it("should send the docs' near miss to otherwise, which the intent took without the examples", async () => {
    const flow = docsFlow();
    const sorry = 'Sorry, I can help with your energy bills and account.';
    expect((await run(flow, 'I want to pay my water bill'))[0]).toBe(sorry);
    await chat?.close();
    const { outOfScope: _, ...understand } = flow.understand ?? {};
    expect(await run({ ...flow, understand }, 'I want to pay my water bill')).toEqual([
      'Here is the payment link.',
    ]);
  });

  it('should still act on the intent the examples are near', async () => {
    expect(await run(docsFlow(), 'I want to pay my electricity bill')).toEqual([
      'Here is the payment link.',
    ]);
  });

  it('should name an out-of-scope proposal in the studio line and the metrics outcome', () => {
    const result = {
      source: 'builtin' as const,
      intent: { id: 'payment', confidence: 0.45 },
      outOfScope: true,
    };
    expect(understandingOutcome(result, 0.6)).toBe('out_of_scope');
    expect(describeUnderstood({ result, threshold: 0.6 })).toBe(
      '→ intent payment (0.45 < 0.6), out of scope [builtin]',
    );
  });
});
