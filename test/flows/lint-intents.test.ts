import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  defineFlow,
  formatDiagnostic,
  lintFlow,
  loadFlowFile,
  parseFlowText,
} from '../../src/flows/index.js';

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

describe('lintFlow: one slot, several intents', () => {
  const f = 'test/fixtures/flows/slot-conflicts.yaml';
  const SIZE = `${f}:22:7 error intents.complain.slots.size: slot "size" of intent "complain" is declared differently under intent "order" (intents.order.slots.size): values only here: family; values only there: medium; synonyms of "large" here [huge], there [big, huge]. It is one variable, and the understanders read one definition of it; declare it once: an anchor on the first (size: &size …), an alias here (size: *size) [slot-conflict]`;

  it('should report a slot declared differently at the later declaration, naming both intents and what differs', async () => {
    expect(await lintFile(f)).toEqual([
      SIZE,
      `${f}:25:7 warning intents.complain.slots.qty: slot "qty" of intent "complain" has another description under intent "order" (intents.order.slots.qty): "Pizzas that were cold" here, "How many pizzas" there. It is one variable; unless that is meant, declare it once: an anchor on the first (qty: &qty …), an alias here (qty: *qty) [slot-conflict]`,
      `${f}:26:7 error intents.complain.slots.when: slot "when" of intent "complain" is declared differently under intent "order" (intents.order.slots.when): kind text here, date there. It is one variable, and the understanders read one definition of it; declare it once: an anchor on the first (when: &when …), an alias here (when: *when) [slot-conflict]`,
    ]);
  });

  it('should show in docs/understanding.md the message validate prints', async () => {
    const docs = await readFile('docs/understanding.md', 'utf8');
    expect(docs).toContain(SIZE.slice(SIZE.indexOf(' error ')));
  });

  it('should give each intent the same definition through a YAML anchor and alias', async () => {
    const loaded = await loadFlowFile(f);
    if (loaded.status === 'error') throw new Error('fixture does not load');
    const intents = loaded.flow.intents ?? {};
    expect(intents['track']?.slots?.['size']).toEqual(intents['order']?.slots?.['size']);
    expect(intents['track']?.slots?.['qty']).toEqual({
      kind: 'integer',
      description: 'How many pizzas',
    });
    const found = lintFlow(loaded.flow).filter((d) => d.path.startsWith('intents.track'));
    expect(found).toEqual([]);
  });

  it('should not mind how a slot is written, the order of values or of synonyms', () => {
    const flow = defineFlow({
      id: 'same-slot',
      version: 1,
      start: 's',
      intents: {
        a: {
          examples: { en: ['one'] },
          slots: {
            qty: 'integer',
            size: {
              kind: 'oneOf',
              values: ['small', { value: 'large', synonyms: ['big', 'huge'] }],
            },
          },
        },
        b: {
          examples: { en: ['two'] },
          slots: {
            qty: { kind: 'integer' },
            size: {
              kind: 'oneOf',
              values: [{ value: 'Large', synonyms: ['huge', 'Big'] }, 'small'],
            },
          },
        },
      },
      states: { s: { say: 'Hi', final: true } },
    });
    expect(lintFlow(flow).filter((d) => d.rule === 'slot-conflict')).toEqual([]);
  });

  it('should report a schema error inside an anchored slot at the anchor and at each alias', () => {
    const text = [
      'id: anchored',
      'version: 1',
      'start: s',
      'intents:',
      '  a:',
      '    examples: { en: [one] }',
      '    slots:',
      '      size: &size { kind: oneOf }',
      '  b:',
      '    examples: { en: [two] }',
      '    slots:',
      '      size: *size',
      'states:',
      '  s: { say: Hi, final: true }',
      '',
    ].join('\n');
    const r = parseFlowText(text, 'anchored.yaml');
    expect(r.status).toBe('error');
    if (r.status !== 'error') return;
    expect(r.diagnostics.map(formatDiagnostic)).toEqual([
      'anchored.yaml:8:7 error intents.a.slots.size.values: a oneOf slot lists its values [schema]',
      'anchored.yaml:12:7 error intents.b.slots.size.values: a oneOf slot lists its values [schema]',
    ]);
  });

  it("should warn at subflow.use when a caller's global intent slot is defined otherwise in the sub-flow", () => {
    const caller = defineFlow({
      id: 'caller',
      version: 1,
      start: 'go',
      intents: {
        order: {
          examples: { en: ['I want a pizza'] },
          slots: { size: { kind: 'oneOf', values: ['small', 'large'] }, qty: 'integer' },
          goto: 'go',
        },
        local: { examples: { en: ['hello'] }, slots: { size: 'text' } },
      },
      states: {
        go: { subflow: { use: 'helper', goto: 'done' } },
        done: { say: 'Bye', final: true },
      },
    });
    const helper = defineFlow({
      id: 'helper',
      version: 1,
      start: 'ask',
      intents: { more: { examples: { en: ['more please'] }, slots: { qty: 'integer' } } },
      states: {
        ask: {
          ask: {
            prompt: 'Which size?',
            var: 'size',
            validate: { kind: 'oneOf', values: ['small', 'medium'] },
            goto: 'done',
          },
        },
        done: { say: 'Ok', final: true },
      },
    });
    const found = lintFlow(caller, { flows: new Map([['helper', helper]]) }).filter(
      (d) => d.rule === 'slot-conflict',
    );
    expect(found.map((d) => `${d.severity} ${d.path}: ${d.message}`)).toEqual(
      [
        'warning states.go.subflow.use: inside sub-flow "helper", slot "size" of global intent "order" (intents.order.slots.size) is read as the sub-flow defines it: values only here: large; values only there: medium ("here" is this flow, "there" the sub-flow); give the slot the same definition in both, or another name',
        'error intents.local.slots.size: slot "size" of intent "local" is declared differently under intent "order" (intents.order.slots.size): kind text here, oneOf there. It is one variable, and the understanders read one definition of it; declare it once: an anchor on the first (size: &size …), an alias here (size: *size)',
      ].sort(),
    );
  });
});
