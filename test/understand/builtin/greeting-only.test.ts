import { describe, expect, it } from 'vitest';
import {
  createBuiltinUnderstander,
  DEFAULT_UNDERSTAND_THRESHOLD,
} from '../../../src/understand/builtin/index.js';
import { isGreetingOnly } from '../../../src/understand/builtin/greeting-only.js';
import type { IntentSpec } from '../../../src/understand/types.js';

const reschedule: IntentSpec = {
  id: 'reschedule',
  examples: {
    en: ['move my delivery to the afternoon', 'can you come in the morning instead'],
    es: ['cambiar la entrega a la tarde', 'mejor por la mañana'],
  },
  slots: [
    {
      name: 'timeslot',
      kind: 'oneOf',
      choices: [
        { value: 'morning', synonyms: ['mañana'] },
        { value: 'afternoon', synonyms: ['tarde', 'tardes'] },
      ],
    },
  ],
};

describe('greetings alone', () => {
  it.each(['buenas tardes', 'Good morning!', 'hi there', 'thanks, bye', 'vale gracias'])(
    'should read "%s" as only a greeting',
    (text) => {
      expect(isGreetingOnly(text)).toBe(true);
    },
  );

  it.each(['this afternoon', 'tardes', 'hi, move it to the afternoon', 'good'])(
    'should not read "%s" as only a greeting',
    (text) => {
      expect(isGreetingOnly(text)).toBe(text === 'good');
    },
  );

  it('should not let an intent be confident on a greeting that shares a slot value', async () => {
    const u = createBuiltinUnderstander();
    const ask = (text: string) =>
      u.understand({
        text,
        locale: 'es',
        timezone: 'UTC',
        now: 0,
        intents: [reschedule],
        slots: [],
      });
    const greeting = await ask('buenas tardes');
    expect(greeting.intent?.confidence ?? 0).toBeLessThan(DEFAULT_UNDERSTAND_THRESHOLD);
    const request = await ask('cambiar la entrega a la tarde por favor');
    expect(request.intent?.id).toBe('reschedule');
    expect(request.intent?.confidence).toBeGreaterThanOrEqual(DEFAULT_UNDERSTAND_THRESHOLD);
  });
});
