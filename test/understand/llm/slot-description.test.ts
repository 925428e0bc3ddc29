/**
 * A slot's `description` written in a flow file reaches the places the docs say use it:
 * the llm prompt (beside the slot's name and kind) and the builtin number assignment.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBot } from '../../../src/bot/load-bot.js';
import { intentsOf } from '../../../src/bot/resolve-understanding.js';
import { createBuiltinUnderstander } from '../../../src/understand/builtin/index.js';
import { buildPrompt } from '../../../src/understand/llm/prompt.js';

const dir = mkdtempSync(join(tmpdir(), 'switchboard-slot-description-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FLOW = `id: parcels
version: 1
start: welcome
intents:
  send:
    examples:
      en: [send a parcel, I want to ship a box]
    slots:
      w:
        kind: number
        description: Weight in kg
      n:
        kind: integer
        description: How many boxes
    goto: done
states:
  welcome:
    say: Hi
    goto: done
  done:
    say: Bye
    final: true
`;

async function intentsFrom(name: string, text: string) {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, text);
  const loaded = await loadBot(file);
  if (loaded.status === 'error') throw new Error(loaded.message);
  return intentsOf(loaded.bot.flows);
}

const input = (intents: Awaited<ReturnType<typeof intentsFrom>>) => ({
  text: 'send 3 boxes of 4 kg',
  locale: 'en',
  timezone: 'UTC',
  now: Date.parse('2026-11-28T12:00:00Z'),
  intents,
  slots: [],
});

describe('a slot description from a flow file', () => {
  it('should be given to the llm in its prompt and read by the builtin to place a number', async () => {
    const described = input(await intentsFrom('parcels', FLOW));
    const system = buildPrompt(described).find((m) => m.role === 'system')?.content ?? '';
    expect(system).toContain('w (number; Weight in kg)');
    expect(system).toContain('n (whole number; How many boxes)');
    const u = await createBuiltinUnderstander().understand(described);
    expect(u.slots).toMatchObject({ w: { value: 4 }, n: { value: 3 } });
    // The names say nothing: without the descriptions the first number goes to the first slot.
    const bare = input(await intentsFrom('bare', FLOW.replace(/ +description: .*\n/g, '')));
    const plain = await createBuiltinUnderstander().understand(bare);
    expect(plain.slots?.['w']?.value).toBe(3);
  });
});
