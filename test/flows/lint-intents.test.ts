import { describe, expect, it } from 'vitest';
import { formatDiagnostic, lintFlow, loadFlowFile } from '../../src/flows/index.js';

async function lintFile(file: string): Promise<string[]> {
  const loaded = await loadFlowFile(file);
  if (loaded.status === 'error') return loaded.diagnostics.map(formatDiagnostic);
  return lintFlow(loaded.flow, { file, positions: loaded.source.positions }).map(formatDiagnostic);
}

describe('lintFlow: intents', () => {
  it('should report unknown targets and intents, duplicate examples, missing locales, slot mismatches and long titles at file:line', async () => {
    const f = 'test/fixtures/flows/broken-intents.yaml';
    expect(await lintFile(f)).toEqual([
      `${f}:7:5 error intents.order.title: button title "Order a very large pizza now" is 28 characters; the limit is 20 (spec 4.5.2) [content-limit]`,
      `${f}:8:5 error intents.order.examples: intent "order" has no es examples (the flow's locales are en, es); add examples.es [missing-examples]`,
      `${f}:11:7 error intents.order.slots.qty: slot "qty" is text but the ask of state "askQty" takes a number [slot-mismatch]`,
      `${f}:12:5 error intents.order.goto: unknown state "nowhere" [unknown-target]`,
      `${f}:15:12 error intents.greet.examples.en[0]: "Hello there" is also an example of intent "order" (intents.order.examples.en[1]); an example belongs to one intent [duplicate-example]`,
      `${f}:27:9 error states.welcome.understand.intents.refund: intent "refund" is not declared under intents (declared: order, greet) [unknown-intent]`,
    ]);
  });

  it('should see the same example under two intents whatever its case, accents and punctuation', async () => {
    const loaded = await loadFlowFile('examples/pizza-order/pizza-order.yaml');
    if (loaded.status === 'error') throw new Error('example does not load');
    const flow = structuredClone(loaded.flow);
    const [first, second] = Object.keys(flow.intents ?? {});
    const a = flow.intents?.[first ?? ''];
    const b = flow.intents?.[second ?? ''];
    if (a === undefined || b === undefined) throw new Error('two intents expected');
    a.examples['en'] = [...(a.examples['en'] ?? []), 'Where is my pizza?'];
    b.examples['en'] = [...(b.examples['en'] ?? []), 'where is  my PIZZA'];
    const found = lintFlow(flow).filter((d) => d.rule === 'duplicate-example');
    expect(found).toHaveLength(1);
    expect(found[0]?.message).toContain(`also an example of intent "${first}"`);
  });

  it('should pass the pizza example clean', async () => {
    expect(await lintFile('examples/pizza-order/pizza-order.yaml')).toEqual([]);
  });

  it('should refuse a oneOf slot value its ask does not accept, and a slot for a media ask', async () => {
    const loaded = await loadFlowFile('examples/pizza-order/pizza-order.yaml');
    if (loaded.status === 'error') throw new Error('example does not load');
    const flow = structuredClone(loaded.flow);
    const order = flow.intents?.['order'];
    if (order?.slots === undefined) throw new Error('no order slots');
    order.slots['pizza'] = { kind: 'oneOf', values: ['margherita', 'hawaiian'] };
    const state = flow.states['askAddress'];
    if (state?.ask === undefined) throw new Error('no askAddress');
    state.ask.validate = { kind: 'image' };
    const found = lintFlow(flow).filter((d) => d.rule === 'slot-mismatch');
    expect(found.map((d) => `${d.path}: ${d.message}`)).toEqual([
      'intents.order.slots.pizza: slot "pizza" value "hawaiian" is not one the ask of state "askPizza" accepts (margherita, pepperoni, veggie)',
      'intents.order.slots.address: the ask of state "askAddress" takes a image, not text: no slot can fill "address"',
    ]);
  });
});
