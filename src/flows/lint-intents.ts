import { LIMITS } from '../core/limits.js';
import type { Diagnostic } from './diagnostic.js';
import type { FlowDefinition } from './flow-schema.js';
import type { SlotDef } from './intent-schema.js';
import { outOfScopeDiagnostics } from './lint-out-of-scope.js';
import { sharedSlotDiagnostics } from './lint-shared-slots.js';
import { exampleKey, normalizeText } from './text-match.js';
import { askSlotSpec, slotSpec } from './understand-runtime.js';

/** A reply button's title limit (spec 4.5.2): the "did you mean" menu shows intent titles. */
const TITLE_MAX = LIMITS.buttonTitle;
/** An interactive body's limit (spec 4.5.2). */
const BODY_MAX = LIMITS.interactiveBody;

/**
 * Lints the understanding part of a flow (docs/understanding.md): intents a state names
 * but the flow does not declare, the same example under two intents, a locale of the flow
 * without examples, intent slots that disagree with the ask capturing the same variable or
 * with the same slot of another intent (lint-shared-slots), and the "did you mean" menu's
 * texts against the button limits. Unknown `goto` targets are reported with the other
 * edges (lint-structure).
 */
export function intentDiagnostics(flow: FlowDefinition): Diagnostic[] {
  const out: Diagnostic[] = [];
  const error = (path: string, rule: string, message: string): void =>
    void out.push({ severity: 'error', path, rule, message });
  const intents = flow.intents ?? {};
  const ids = Object.keys(intents);
  for (const [name, s] of Object.entries(flow.states)) {
    if (s.understand === undefined || s.understand === false) continue;
    for (const id of Object.keys(s.understand.intents ?? {}))
      if (!Object.hasOwn(intents, id))
        error(
          `states.${name}.understand.intents.${id}`,
          'unknown-intent',
          `intent "${id}" is not declared under intents (declared: ${ids.length === 0 ? 'none' : ids.join(', ')})`,
        );
  }
  const seen = new Map<string, { id: string; path: string }>();
  const locales = flow.locales ?? [];
  for (const [id, intent] of Object.entries(intents)) {
    for (const [locale, examples] of Object.entries(intent.examples)) {
      if (locales.length > 0 && !locales.includes(locale))
        out.push({
          severity: 'warning',
          path: `intents.${id}.examples.${locale}`,
          rule: 'unknown-locale',
          message: `"${locale}" is not among the flow's locales (${locales.join(', ')})`,
        });
      examples.forEach((example, i) => {
        const key = `${locale}\u0000${exampleKey(example)}`;
        const path = `intents.${id}.examples.${locale}[${i}]`;
        const first = seen.get(key);
        if (first === undefined) seen.set(key, { id, path });
        else if (first.id !== id)
          error(
            path,
            'duplicate-example',
            `"${example}" is also an example of intent "${first.id}" (${first.path}); an example belongs to one intent`,
          );
      });
    }
    for (const locale of locales)
      if ((intent.examples[locale] ?? []).length === 0)
        error(
          `intents.${id}.examples`,
          'missing-examples',
          `intent "${id}" has no ${locale} examples (the flow's locales are ${locales.join(', ')}); add examples.${locale}`,
        );
    if (intent.title !== undefined) checkTitle(flow, `intents.${id}.title`, intent.title, error);
    for (const [name, slot] of Object.entries(intent.slots ?? {}))
      slotAgainstAsk(flow, `intents.${id}.slots.${name}`, name, slot, error);
  }
  out.push(...sharedSlotDiagnostics(flow));
  out.push(...outOfScopeDiagnostics(flow));
  const body = flow.understand?.clarify?.body;
  if (body !== undefined) {
    for (const [locale, text] of variants(flow, body))
      if (text.length > BODY_MAX)
        error(
          'understand.clarify.body',
          'content-limit',
          `${locale === '' ? '' : `in ${locale}: `}the "did you mean" body is ${text.length} characters; the limit is ${BODY_MAX} (spec 4.5.2)`,
        );
  }
  return out;
}

type Report = (path: string, rule: string, message: string) => void;

function checkTitle(flow: FlowDefinition, path: string, title: string, error: Report): void {
  for (const [locale, text] of variants(flow, title))
    if ([...text].length > TITLE_MAX)
      error(
        path,
        'content-limit',
        `${locale === '' ? '' : `in ${locale}: `}button title "${text}" is ${[...text].length} characters; the limit is ${TITLE_MAX} (spec 4.5.2)`,
      );
}

/** A text as written ('' locale) and in each translated locale. */
function variants(flow: FlowDefinition, text: string): [string, string][] {
  const out: [string, string][] = [['', text]];
  for (const [locale, table] of Object.entries(flow.translations ?? {})) {
    const t = table[text];
    if (t !== undefined) out.push([locale, t]);
  }
  return out;
}

/** An intent slot must fit the ask that captures the same variable (its rules decide). */
function slotAgainstAsk(
  flow: FlowDefinition,
  path: string,
  name: string,
  slot: SlotDef,
  error: Report,
): void {
  const state = Object.entries(flow.states).find(([, s]) => s.ask?.var === name);
  const ask = state?.[1].ask;
  if (state === undefined || ask === undefined) return;
  const spec = slotSpec(name, slot);
  const askSpec = askSlotSpec(ask);
  const where = `the ask of state "${state[0]}"`;
  if (askSpec === undefined) {
    error(
      path,
      'slot-mismatch',
      `${where} takes a ${ask.validate?.kind ?? ''}, not text: no slot can fill "${name}"`,
    );
    return;
  }
  const numeric = new Set(['number', 'integer', 'amount']);
  const rule = ask.validate?.kind;
  if (rule === 'number' && !numeric.has(spec.kind))
    error(path, 'slot-mismatch', `slot "${name}" is ${spec.kind} but ${where} takes a number`);
  else if (
    (rule === 'email' || rule === 'phone' || rule === 'date' || rule === 'time') &&
    spec.kind !== rule
  )
    error(path, 'slot-mismatch', `slot "${name}" is ${spec.kind} but ${where} takes a ${rule}`);
  else if (rule === 'oneOf' && ask.validate?.kind === 'oneOf') {
    const allowed = ask.validate.values.map(normalizeText);
    if (spec.kind !== 'oneOf')
      error(
        path,
        'slot-mismatch',
        `slot "${name}" is ${spec.kind} but ${where} takes one of ${ask.validate.values.join(', ')}`,
      );
    else
      for (const c of spec.choices ?? [])
        if (!allowed.includes(normalizeText(c.value)))
          error(
            path,
            'slot-mismatch',
            `slot "${name}" value "${c.value}" is not one ${where} accepts (${ask.validate.values.join(', ')})`,
          );
  }
}

/** An example as the understanders read it: case, accents and punctuation aside. */
