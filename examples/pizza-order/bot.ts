import { defineBot } from 'switchboard';

/**
 * A pizza bot: the whole order in one sentence, corrections, delivery-area and allergen
 * answers from Markdown knowledge files, and a person when asked (docs/understanding.md).
 * Its understander is the default one (the builtin, offline).
 */
export const bot = defineBot({
  flows: ['./pizza-order.yaml'],
  understand: {
    knowledge: [
      'knowledge/delivery.md',
      'knowledge/allergens.md',
      'knowledge/delivery.es.md',
      'knowledge/allergens.es.md',
    ],
    timezone: 'Europe/London',
  },
  dir: import.meta.dirname,
});
