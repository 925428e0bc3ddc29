/**
 * A bookshop's intents (a domain no labelled set has), shared by the rule tests of issue #30
 * so that a test shows a mechanism rather than the fit to a set.
 */
import type { IntentSpec } from '../../../src/understand/types.js';

export const BOOKSHOP: IntentSpec[] = [
  {
    id: 'order',
    examples: {
      en: ['I want to order a book', 'order the new novel for me', 'can you get this book in'],
      es: ['quiero encargar un libro', 'pedir la novela nueva'],
    },
  },
  {
    id: 'cancel',
    examples: {
      en: ['cancel my order', 'please cancel the book I ordered', 'drop my reservation'],
      es: ['cancela mi pedido', 'anulad la reserva del libro'],
    },
  },
  {
    id: 'deliver',
    examples: {
      en: ['can you deliver the book to my house', 'send my order home'],
      es: ['¿me traéis el libro a casa?', '¿me mandan el pedido a casa?'],
    },
  },
  {
    id: 'agent',
    examples: { en: ['talk to a real person', 'I want a human'], es: ['hablar con una persona'] },
  },
];

/** The same intents with slots: a genre to order, an address to deliver to. */
export const BOOKSHOP_WITH_SLOTS: IntentSpec[] = BOOKSHOP.map((intent) => {
  if (intent.id === 'order')
    return {
      ...intent,
      slots: [{ name: 'genre', kind: 'oneOf', choices: [{ value: 'novel' }, { value: 'poetry' }] }],
    };
  if (intent.id === 'deliver') return { ...intent, slots: [{ name: 'address', kind: 'text' }] };
  return intent;
});
