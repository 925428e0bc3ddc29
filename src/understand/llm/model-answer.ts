/**
 * A model's reply, checked: JSON of the prompt's shape (zod), an intent id among this
 * message's intents, slots among this message's slots with values of their kind (others
 * dropped one by one), a knowledge answer only when it cites sections that were sent.
 */
import { z } from 'zod';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { LIMITS } from '../../core/limits.js';
import { trimText, type KnowledgeHit } from '../knowledge/knowledge-base.js';
import type { SlotSpec, SlotValue, UnderstandInput, Understanding } from '../types.js';
import { fold, localeRegion } from '../text/fold.js';

const clamp = z.number().transform((n) => Math.max(0, Math.min(1, n)));

/** The JSON a model must answer (see prompt.ts). */
export const modelAnswerSchema = z.object({
  intent: z.string().nullable().optional(),
  confidence: clamp.optional(),
  alternatives: z.array(z.object({ intent: z.string(), confidence: clamp })).optional(),
  slots: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  correction: z.boolean().optional(),
  handoff: z.boolean().optional(),
  answer: z.string().nullable().optional(),
  sources: z.array(z.number().int()).optional(),
});

/** Why a reply was refused. */
export class InvalidModelAnswer extends Error {
  override readonly name = 'InvalidModelAnswer';
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

function validDate(s: string): boolean {
  if (!DATE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}

/** A model's value for `slot`, normalised, or undefined when it is not of the slot's kind. */
export function slotValueOf(
  slot: SlotSpec,
  raw: string | number | boolean | null,
  country?: string,
): SlotValue | undefined {
  if (raw === null || typeof raw === 'boolean') return undefined;
  const text = String(raw).trim();
  if (text === '' || /^\[[a-z]+\]$/.test(text)) return undefined;
  switch (slot.kind) {
    case 'number':
    case 'amount':
    case 'integer': {
      const n = typeof raw === 'number' ? raw : Number(text.replace(',', '.'));
      if (!Number.isFinite(n) || (slot.kind === 'integer' && !Number.isInteger(n)))
        return undefined;
      return { value: n };
    }
    case 'date':
      return validDate(text) ? { value: text } : undefined;
    case 'time':
      return TIME.test(text) ? { value: text } : undefined;
    case 'datetime': {
      const [d, t] = text.split('T');
      return d !== undefined && t !== undefined && validDate(d) && TIME.test(t.slice(0, 5))
        ? { value: `${d}T${t.slice(0, 5)}` }
        : undefined;
    }
    case 'email':
      return EMAIL.test(text) ? { value: text.toLowerCase() } : undefined;
    case 'phone': {
      const p = parsePhoneNumberFromString(text, country as CountryCode | undefined);
      return p?.isPossible() === true ? { value: p.number } : undefined;
    }
    case 'oneOf': {
      const want = fold(text);
      const choice = (slot.choices ?? []).find((c) =>
        [c.value, ...(c.synonyms ?? [])].some((v) => fold(v) === want),
      );
      return choice === undefined ? undefined : { value: choice.value };
    }
    case 'text':
      return text.length <= 500 ? { value: text } : undefined;
  }
}

/**
 * The understanding in a model's reply `content`, or throws {@link InvalidModelAnswer}
 * (not JSON, not the shape, an intent id not offered, an alternative not offered).
 */
export function readModelAnswer(
  content: string,
  input: UnderstandInput,
  hits: readonly KnowledgeHit[],
  defaultCountry?: string,
): Understanding {
  let json: unknown;
  try {
    json = JSON.parse(content.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    throw new InvalidModelAnswer('the reply is not JSON');
  }
  const parsed = modelAnswerSchema.safeParse(json);
  if (!parsed.success)
    throw new InvalidModelAnswer(
      `the reply is not of the asked shape: ${parsed.error.issues[0]?.message ?? ''}`,
    );
  const a = parsed.data;
  const ids = new Set(input.intents.map((i) => i.id));
  if (a.intent != null && !ids.has(a.intent))
    throw new InvalidModelAnswer(`unknown intent "${a.intent}"`);
  const intent = a.intent == null ? undefined : input.intents.find((i) => i.id === a.intent);
  const specs = new Map<string, SlotSpec>();
  for (const s of [
    ...input.slots,
    ...(intent?.slots ?? []),
    ...input.intents.flatMap((i) => i.slots ?? []),
  ]) {
    if (!specs.has(s.name)) specs.set(s.name, s);
  }
  const country = localeRegion(input.locale) ?? defaultCountry;
  const slots: Record<string, SlotValue> = {};
  for (const [name, raw] of Object.entries(a.slots ?? {})) {
    const spec = specs.get(name);
    const value = spec === undefined ? undefined : slotValueOf(spec, raw, country);
    if (value !== undefined) slots[name] = value;
  }
  const alternatives = (a.alternatives ?? [])
    .filter((x) => ids.has(x.intent) && x.intent !== a.intent)
    .map((x) => ({ id: x.intent, confidence: x.confidence }));
  const cited = [...new Set(a.sources ?? [])].flatMap((n) =>
    hits[n - 1] === undefined ? [] : [hits[n - 1] as KnowledgeHit],
  );
  // An answer that cites nothing that was sent is not grounded: it is dropped.
  const answer =
    input.knowledge === true && a.answer != null && a.answer.trim() !== '' && cited.length > 0
      ? a.answer.trim()
      : undefined;
  const filled = input.filled ?? {};
  const correction = a.correction === true && Object.keys(slots).some((k) => k in filled);
  return {
    source: 'llm',
    ...(intent === undefined ? {} : { intent: { id: intent.id, confidence: a.confidence ?? 0.5 } }),
    ...(alternatives.length === 0 ? {} : { alternatives }),
    ...(Object.keys(slots).length === 0 ? {} : { slots }),
    ...(correction ? { correction: true } : {}),
    ...(a.handoff === true ? { handoff: true } : {}),
    ...(answer === undefined
      ? {}
      : {
          knowledge: {
            text: trimText(answer, LIMITS.textBody.max),
            confidence: Math.max(...cited.map((h) => h.confidence)),
            sources: cited.map((h) => ({ file: h.section.file, heading: h.section.heading })),
          },
        }),
  };
}
