import { describe, expect, it } from 'vitest';
import { withoutClitics } from '../../../src/understand/text/roots.js';
import type { IntentSpec } from '../../../src/understand/types.js';
import { understandWith } from './understand-with.js';

describe('withoutClitics', () => {
  it.each([
    ['anulala', 'anula'],
    ['borrame', 'borra'],
    ['mandadlo', 'mandad'],
    ['mandadmelo', 'mandad'],
    ['reservamela', 'reserva'],
  ])('should take the pronouns off "%s"', (word, bare) => {
    expect(withoutClitics(word, 'es')).toBe(bare);
  });

  it.each([
    ['cita', 'es'],
    ['mole', 'es'],
    ['anulala', 'en'],
  ])('should leave "%s" (%s) alone', (word, language) => {
    expect(withoutClitics(word, language)).toBeUndefined();
  });
});

describe('builtin understander with pronouns written onto a Spanish verb', () => {
  const intents: IntentSpec[] = [
    {
      id: 'book',
      examples: { es: ['quiero reservar una cita', 'reserva una cita para el lunes'] },
    },
    { id: 'cancel', examples: { es: ['anula mi cita', 'quiero cancelar la cita'] } },
    { id: 'send', examples: { es: ['mandar la factura por correo', 'enviar la factura'] } },
  ];
  const understand = (text: string) => understandWith(intents, text, 'es');

  it.each([
    ['anúlala por favor', 'cancel'],
    ['la cita del lunes, anúlala', 'cancel'],
    ['mandádmela por correo', 'send'],
  ])('should read "%s" as the bare verb', async (text, intent) => {
    const u = await understand(text);
    expect(u.intent?.id).toBe(intent);
    expect(u.intent?.confidence).toBeGreaterThanOrEqual(0.6);
  });
});
