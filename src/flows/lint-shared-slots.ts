import type { SlotSpec } from '../understand/types.js';
import type { Diagnostic } from './diagnostic.js';
import type { FlowDefinition } from './flow-schema.js';
import { normalizeText } from './text-match.js';
import { nluOf, slotSpec } from './understand-runtime.js';

/**
 * A slot name declared by several intents is one variable, and the understanders read one
 * definition of it (the first declared gives an ask its kind and synonyms; the builtin
 * extracts a name once, with the first definition it meets). So each later declaration
 * must say the same: a different kind, values or synonyms is an error (a value heard under
 * one intent is missed or refused under the other); a different description only a
 * warning (a hint to the understander, which may be meant). Reported at the later
 * declaration, naming the first.
 * @example
 * sharedSlotDiagnostics(flow); // [{ path: 'intents.refund.slots.product', rule: 'slot-conflict', … }]
 */
export function sharedSlotDiagnostics(flow: FlowDefinition): Diagnostic[] {
  const out: Diagnostic[] = [];
  const first = new Map<string, { id: string; path: string; spec: SlotSpec }>();
  for (const [id, intent] of Object.entries(flow.intents ?? {}))
    for (const [name, slot] of Object.entries(intent.slots ?? {})) {
      const path = `intents.${id}.slots.${name}`;
      const spec = slotSpec(name, slot);
      const seen = first.get(name);
      if (seen === undefined) {
        first.set(name, { id, path, spec });
        continue;
      }
      const d = slotDifferences(spec, seen.spec);
      const head = `slot "${name}" of intent "${id}"`;
      const there = `intent "${seen.id}" (${seen.path})`;
      const fix = `declare it once: an anchor on the first (${name}: &${name} …), an alias here (${name}: *${name})`;
      if (d.differences.length > 0)
        out.push({
          severity: 'error',
          path,
          rule: 'slot-conflict',
          message: `${head} is declared differently under ${there}: ${d.differences.join('; ')}. It is one variable, and the understanders read one definition of it; ${fix}`,
        });
      else if (d.description !== undefined)
        out.push({
          severity: 'warning',
          path,
          rule: 'slot-conflict',
          message: `${head} has another description under ${there}: ${d.description}. It is one variable; unless that is meant, ${fix}`,
        });
    }
  return out;
}

/**
 * While a sub-flow runs, its callers' global intents are understood with its own intents
 * and asks in one call, and a slot name is read with the sub-flow's definition first
 * (docs/understanding.md, "Inside a sub-flow"). A global intent of `flow` whose slot the
 * sub-flow `target` defines otherwise (its ask or intent slot of that name) loses values
 * there: a warning at the `subflow.use` (the two variables are distinct, so the fix may
 * as well be another name).
 */
export function subflowSlotDiagnostics(
  flow: FlowDefinition,
  usePath: string,
  target: FlowDefinition,
): Diagnostic[] {
  const nlu = nluOf(target);
  if (nlu === undefined) return [];
  const out: Diagnostic[] = [];
  for (const [id, intent] of Object.entries(flow.intents ?? {})) {
    if (intent.goto === undefined) continue;
    for (const [name, slot] of Object.entries(intent.slots ?? {})) {
      const theirs = nlu.askSlots.find((s) => s.name === name) ?? nlu.slotKinds.get(name);
      if (theirs === undefined) continue;
      const d = slotDifferences(slotSpec(name, slot), theirs);
      if (d.differences.length === 0) continue;
      out.push({
        severity: 'warning',
        path: usePath,
        rule: 'slot-conflict',
        message: `inside sub-flow "${target.id}", slot "${name}" of global intent "${id}" (intents.${id}.slots.${name}) is read as the sub-flow defines it: ${d.differences.join('; ')} ("here" is this flow, "there" the sub-flow); give the slot the same definition in both, or another name`,
      });
    }
  }
  return out;
}

/** How slot `a` differs from `b`: kind, values, synonyms; description apart. */
function slotDifferences(
  a: SlotSpec,
  b: SlotSpec,
): { differences: string[]; description?: string } {
  const differences: string[] = [];
  if (a.kind !== b.kind) differences.push(`kind ${a.kind} here, ${b.kind} there`);
  else {
    const mine = choices(a);
    const theirs = choices(b);
    const onlyHere = [...mine.keys()].filter((v) => !theirs.has(v));
    const onlyThere = [...theirs.keys()].filter((v) => !mine.has(v));
    if (onlyHere.length > 0) differences.push(`values only here: ${onlyHere.join(', ')}`);
    if (onlyThere.length > 0) differences.push(`values only there: ${onlyThere.join(', ')}`);
    for (const [value, words] of mine) {
      const theirWords = theirs.get(value);
      if (theirWords === undefined || sameList(words, theirWords)) continue;
      differences.push(
        `synonyms of "${value}" here [${words.join(', ')}], there [${theirWords.join(', ')}]`,
      );
    }
  }
  const da = a.description ?? '';
  const db = b.description ?? '';
  return da === db ? { differences } : { differences, description: `"${da}" here, "${db}" there` };
}

/** oneOf values (normalized as the understanders match them) → their sorted synonyms. */
function choices(spec: SlotSpec): Map<string, string[]> {
  return new Map(
    (spec.choices ?? []).map((c) => [
      normalizeText(c.value),
      [...new Set((c.synonyms ?? []).map(normalizeText))].sort(),
    ]),
  );
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
