/**
 * The `builtin` understander: offline, deterministic, no model. Intents by similarity to
 * their examples (TF-IDF cosine over words and character trigrams, typos mapped to known
 * words), slots by kind (see extract-slots.ts), corrections, handoff phrases, and
 * knowledge answers from the bot's Markdown when no intent is confident.
 */
import { performance } from 'node:perf_hooks';
import type { KnowledgeBase } from '../knowledge/knowledge-base.js';
import { DEFAULT_KNOWLEDGE_THRESHOLD } from '../knowledge/knowledge-base.js';
import type {
  IntentSpec,
  ScoredIntent,
  SlotSpec,
  UnderstandInput,
  Understander,
  Understanding,
} from '../types.js';
import { baseLanguage, fold } from '../text/fold.js';
import { calibrate } from './confidence.js';
import { soundsLikeCorrection } from './correction.js';
import { extractSlots, type SlotContext, type SlotValues } from './extract-slots.js';
import { CHATTER_ID } from './chatter-phrases.js';
import { HANDOFF_ID } from './handoff-phrases.js';
import { isBotQuestion } from './bot-question.js';
import { isGreetingOnly, withoutOpeningGreeting } from './greeting-only.js';
import { IndexCache } from './index-cache.js';
import { asksForCallback, asksForPerson } from './person-request.js';
import type { IntentIndex, RawScore } from './intent-index.js';
import { questionWordOf } from './question-form.js';
import { MISFIT_FACTOR, misfitsOf } from './object-fit.js';
import { lowered, OUT_OF_SCOPE_ID, takenOutOfScope } from './out-of-scope.js';

/**
 * The confidence below which a flow should treat an understanding as not understood
 * (`otherwise`). Chosen on the development set (test/fixtures/understand, tuned on pizza):
 * at 0.6 pizza has no out-of-scope message taken confidently; courier, the check domain,
 * has 3 of 20 (messages sharing a domain word: "what's the time in Tokyo").
 */
export const DEFAULT_UNDERSTAND_THRESHOLD = 0.6;

/** Alternatives are intents at least this confident, at most this many. */
const ALTERNATIVE_FLOOR = 0.1;
const MAX_ALTERNATIVES = 3;
/** Cosine a message needs with a built-in handoff phrase to be a request for a person. */
const HANDOFF_MIN_SIMILARITY = 0.5;
/**
 * Confidence of a request for a person read from its words (person-request.ts): it wins
 * over any intent, as a message that asks for a person wants one whatever else it says.
 */
const PERSON_REQUEST_CONFIDENCE = 0.9;

/** Options of {@link createBuiltinUnderstander}. */
export interface BuiltinUnderstanderOptions {
  /** The bot's knowledge, searched when `input.knowledge` is set and no intent is confident. */
  readonly knowledge?: KnowledgeBase;
  /** Confidence an intent needs to be taken over knowledge and handoff (default {@link DEFAULT_UNDERSTAND_THRESHOLD}). */
  readonly threshold?: number;
  /** Confidence a knowledge answer needs (default 0.6). */
  readonly knowledgeThreshold?: number;
  /** Country for phone numbers written in national format when the locale has no region (`GB`). */
  readonly defaultCountry?: string;
}

/** The builtin understander, with a way to index intents ahead of the first message. */
export interface BuiltinUnderstander extends Understander {
  readonly name: 'builtin';
  /** Indexes `intents` now (otherwise on the first message that has them in scope). */
  prepare(intents: readonly IntentSpec[]): void;
}

/**
 * An intent's confidence: the mean of the classifier's probability (which intent the
 * message's words point to, against the others and chatter) and the calibrated
 * similarity (how close it is to the intent's examples at all). Each alone is fooled:
 * the classifier by one telling word in a message about something else, similarity by a
 * message as close to two intents. Chosen on the labelled sets (test/fixtures/understand).
 */
function confidenceOf(score: RawScore): number {
  return Math.round(((score.probability + calibrate(score.similarity)) / 2) * 1000) / 1000;
}

/** Words a question starts with, folded (English and Spanish). */
const QUESTION_START =
  /^(?:what|whats|where|wheres|when|how|which|who|why|do|does|did|is|are|can|could|will|would|have|has|que|donde|cuando|como|cual|cuales|cuanto|cuanta|cuantos|cuantas|quien|hay|tienen|teneis|tienes|puedo|puede|pueden|podeis|hacen|haceis|llevan|lleva)\b/;

/** Whether `text` asks something: a question mark, or a question's first word. */
function isQuestion(text: string): boolean {
  return /[?¿]/.test(text) || QUESTION_START.test(fold(text.trim()));
}

/**
 * An intent's confidence is multiplied by this for an information question ("what time is
 * my appointment") when none of the intent's examples asks one and another intent's
 * examples ask with the same question word ("what time do you open"): the question shares
 * the first intent's words but asks what the other answers (see question-form.ts).
 */
const UNASKED_QUESTION_FACTOR = 0.6;

/**
 * Intents' confidences are multiplied by this for a message that only greets or thanks
 * (greeting-only.ts): whatever word of it an example shares, it asks for nothing. The
 * bot's intent for asking for a person is multiplied by it for a question about the bot
 * (bot-question.ts): "are you a real person" shares "a real person" and asks for no one.
 */
const GREETING_FACTOR = 0.5;

const questionWords = new WeakMap<IntentIndex, ReadonlyMap<string, ReadonlySet<string>>>();

/** Per intent, the question words its examples open an information question with. */
function questionWordsOf(
  index: IntentIndex,
  intents: readonly IntentSpec[],
): ReadonlyMap<string, ReadonlySet<string>> {
  const known = questionWords.get(index);
  if (known !== undefined) return known;
  const words = new Map(
    intents.map((i) => [
      i.id,
      new Set(
        Object.values(i.examples)
          .flat()
          .flatMap((e) => questionWordOf(e) ?? []),
      ),
    ]),
  );
  questionWords.set(index, words);
  return words;
}

/**
 * The intents an information question is not for: those none of whose examples asks one,
 * when another intent's examples ask with the message's question word.
 */
function unaskedBy(
  text: string,
  index: IntentIndex,
  intents: readonly IntentSpec[],
): ReadonlySet<string> {
  const word = questionWordOf(text);
  if (word === undefined) return new Set();
  const words = questionWordsOf(index, intents);
  if (![...words.values()].some((w) => w.has(word))) return new Set();
  return new Set([...words].filter(([, w]) => w.size === 0).map(([id]) => id));
}

const personIntents = new WeakMap<IntentIndex, string | null>();

/**
 * The bot's intent for asking for a person, if it has one: the first intent most of whose
 * examples ask for a person, read from their words (person-request.ts) or matched by the
 * built-in handoff phrases ("talk to a human", "hablar con alguien"). Only an intent with
 * an example the words read as asking is scored against the phrases: scoring every example
 * of a bot with no such intent took ~30 ms, on the first message that asked for a person.
 */
function personIntentOf(index: IntentIndex, intents: readonly IntentSpec[]): string | undefined {
  const known = personIntents.get(index);
  if (known !== undefined) return known ?? undefined;
  let found: string | null = null;
  for (const intent of intents) {
    const examples = Object.entries(intent.examples).flatMap(([locale, phrases]) =>
      phrases.map((text) => ({ text, locale })),
    );
    if (!examples.some((e) => asksForPerson(e.text))) continue;
    const asking = examples.filter(
      (e) =>
        asksForPerson(e.text) ||
        (index.score(e.text, e.locale).find((s) => s.id === HANDOFF_ID)?.similarity ?? 0) >=
          HANDOFF_MIN_SIMILARITY,
    ).length;
    if (examples.length > 0 && asking * 2 >= examples.length) {
      found = intent.id;
      break;
    }
  }
  personIntents.set(index, found);
  return found ?? undefined;
}

function mergeSpecs(...lists: (readonly SlotSpec[])[]): SlotSpec[] {
  const seen = new Set<string>();
  const out: SlotSpec[] = [];
  for (const list of lists) {
    for (const s of list) {
      if (seen.has(s.name)) continue;
      seen.add(s.name);
      out.push(s);
    }
  }
  return out;
}

function choiceSlotsOf(intents: readonly IntentSpec[]): SlotSpec[] {
  return intents.flatMap((i) => (i.slots ?? []).filter((s) => s.kind === 'oneOf'));
}

function filledSpecs(input: UnderstandInput): SlotSpec[] {
  const filled = input.filled ?? {};
  const known = mergeSpecs(input.slots, ...input.intents.map((i) => i.slots ?? []));
  // Most recently filled first: "no, make it 3" most often takes back the last answer.
  return Object.keys(filled)
    .reverse()
    .flatMap((name): SlotSpec[] => {
      const spec = known.find((s) => s.name === name);
      if (spec !== undefined) return [spec];
      return typeof filled[name] === 'number' ? [{ name, kind: 'number' }] : [];
    });
}

function corrections(input: UnderstandInput, ctx: SlotContext): SlotValues {
  const filled = input.filled ?? {};
  if (Object.keys(filled).length === 0 || !soundsLikeCorrection(input.text)) return {};
  const found = extractSlots(input.text, filledSpecs(input), ctx);
  const out: SlotValues = {};
  for (const [name, v] of Object.entries(found)) if (v.value !== filled[name]) out[name] = v;
  return out;
}

/**
 * Whether the out-of-scope class takes the message (out-of-scope.ts). It is judged in an
 * index of its own, with the intents: the class's examples change the weights of every
 * word and the classifier's classes, so scoring the intents there would change every
 * other message's confidences (measured on heldout4: 2 to 3 rows of ~160 lost).
 */
function isOutOfScope(
  index: IntentIndex,
  input: UnderstandInput,
  top: ScoredIntent | undefined,
  greeting: number,
): boolean {
  const raw = index.score(withoutOpeningGreeting(input.text), input.locale, {
    now: input.now,
    timezone: input.timezone,
  });
  const own = raw.find((s) => s.id === OUT_OF_SCOPE_ID);
  if (own === undefined) return false;
  // The best intent as scored beside the class, so both are on the same scale.
  const rival = raw.find((s) => s.id === top?.id);
  return takenOutOfScope(
    confidenceOf(own) * greeting,
    rival === undefined ? undefined : { id: rival.id, confidence: confidenceOf(rival) },
  );
}

/**
 * Creates the builtin understander.
 * @example
 * const understander = createBuiltinUnderstander({ knowledge: loadKnowledge(files) });
 * const u = await understander.understand({ text: '2 large pepperoni', locale: 'en', timezone: 'UTC', now: Date.now(), intents, slots: [] });
 * if ((u.intent?.confidence ?? 0) >= DEFAULT_UNDERSTAND_THRESHOLD) { … }
 */
export function createBuiltinUnderstander(
  options: BuiltinUnderstanderOptions = {},
): BuiltinUnderstander {
  const cache = new IndexCache();
  const threshold = options.threshold ?? DEFAULT_UNDERSTAND_THRESHOLD;
  return {
    name: 'builtin',
    prepare(intents) {
      cache.get(intents);
    },
    understand(input) {
      const started = performance.now();
      const index = cache.get(input.intents);
      // The intents are scored on the request, without the greeting it opens with.
      const raw = index.score(withoutOpeningGreeting(input.text), input.locale, {
        now: input.now,
        timezone: input.timezone,
      });
      const unasked = unaskedBy(input.text, index, input.intents);
      const greeting = isGreetingOnly(input.text) ? GREETING_FACTOR : 1;
      const misfits = misfitsOf(index, input.intents, input.text, input.locale);
      // A question about the bot is not a request for a person: the bot's own intent for
      // one ("talk to a real person") shares its words but is not what it asks.
      const aboutBot = isBotQuestion(input.text) && !asksForPerson(input.text);
      const personAsked = aboutBot ? personIntentOf(index, input.intents) : undefined;
      const scores = raw
        .map((s): ScoredIntent => {
          const factor =
            (unasked.has(s.id) ? UNASKED_QUESTION_FACTOR : 1) *
            (misfits.has(s.id) ? MISFIT_FACTOR : 1) *
            (s.id === personAsked ? GREETING_FACTOR : 1) *
            greeting;
          const confidence = confidenceOf(s);
          return {
            id: s.id,
            confidence: factor === 1 ? confidence : Math.round(confidence * factor * 1000) / 1000,
          };
        })
        .sort((a, b) => b.confidence - a.confidence);
      // Handoff is judged on its phrases' own cosine, with a higher bar than intents: a
      // message sharing one word with "necesito hablar con alguien" is not a request.
      // A question about the bot ("are you a real person?") shares the phrases' words but
      // asks what the bot is (bot-question.ts): only a request read from the words counts.
      const handoffRaw = raw.find((s) => s.id === HANDOFF_ID);
      const phrased =
        handoffRaw !== undefined && handoffRaw.similarity >= HANDOFF_MIN_SIMILARITY && !aboutBot
          ? confidenceOf(handoffRaw)
          : 0;
      const asked = asksForPerson(input.text);
      // Asking to be called back ("call me please") is asking for a person at the
      // threshold: an intent confident on the rest ("my tooth broke, call me") keeps it.
      const handoffScore = asked
        ? Math.max(phrased, PERSON_REQUEST_CONFIDENCE)
        : asksForCallback(input.text)
          ? Math.max(phrased, threshold)
          : phrased;
      // Chatter is a class of the classifier like any intent: where it wins, the intents
      // share what probability is left, so none is confident.
      const candidates = scores.filter(
        (s) =>
          s.id !== HANDOFF_ID &&
          s.id !== CHATTER_ID &&
          s.id !== OUT_OF_SCOPE_ID &&
          s.confidence >= ALTERNATIVE_FLOOR,
      );
      // The author's out-of-scope examples (out-of-scope.ts): closest to them, or nearly as
      // close as to the best intent, the message is not understood (no intent confident).
      const outOfScope =
        input.outOfScope !== undefined &&
        isOutOfScope(cache.get(input.intents, input.outOfScope), input, candidates[0], greeting);
      const ranked = outOfScope ? lowered(candidates) : candidates;
      const handoffWins =
        handoffScore >= threshold && (asked || handoffScore > (ranked[0]?.confidence ?? 0));
      // The bot's own way to ask for a person ("human", "agent") is answered as that
      // intent, not as the built-in handoff: the bot's intent wins.
      const person = handoffWins ? personIntentOf(index, input.intents) : undefined;
      if (person !== undefined) {
        const rest = ranked.filter((s) => s.id !== person);
        ranked.splice(0, ranked.length, { id: person, confidence: handoffScore }, ...rest);
      }
      const top = ranked[0];
      const alternatives = ranked
        .slice(1, 1 + MAX_ALTERNATIVES)
        .filter((s) => s.confidence >= ALTERNATIVE_FLOOR);
      const topSpec = top === undefined ? undefined : input.intents.find((i) => i.id === top.id);
      const ctx: SlotContext = {
        language: baseLanguage(input.locale),
        locale: input.locale,
        timezone: input.timezone,
        now: input.now,
        defaultCountry: options.defaultCountry,
      };
      // The top intent's slots, then every other intent's `oneOf` slots: a named choice
      // ("a medium", "the pepperoni") is that slot's value whatever the intent.
      const slots: SlotValues = extractSlots(
        input.text,
        mergeSpecs(input.slots, topSpec?.slots ?? [], choiceSlotsOf(input.intents)),
        ctx,
      );
      const corrected = corrections(input, ctx);
      Object.assign(slots, corrected);
      const confident = top !== undefined && top.confidence >= threshold;
      const handoff = handoffWins && person === undefined;
      // A question is looked up in knowledge even when an intent is confident: "do you
      // deliver to Headingley?" shares "deliver" with an order, but the knowledge files
      // answer it better. The intent is then left out: a flow acts on any intent above its
      // threshold, alternatives included.
      const question = isQuestion(input.text);
      const found =
        input.knowledge === true &&
        options.knowledge !== undefined &&
        !handoff &&
        (!confident || question)
          ? options.knowledge.answer(
              input.text,
              input.locale,
              options.knowledgeThreshold ?? DEFAULT_KNOWLEDGE_THRESHOLD,
            )
          : undefined;
      const knowledgeWins =
        found !== undefined && (!confident || found.confidence >= (top?.confidence ?? 0));
      const knowledge = knowledgeWins ? found : undefined;
      const intent = knowledgeWins && confident ? undefined : top;
      const result: Understanding = {
        source: 'builtin',
        ...(intent === undefined ? {} : { intent }),
        ...(alternatives.length === 0 ? {} : { alternatives }),
        ...(Object.keys(slots).length === 0 ? {} : { slots }),
        ...(Object.keys(corrected).length === 0 ? {} : { correction: true }),
        ...(handoff ? { handoff: true } : {}),
        ...(outOfScope && !handoffWins ? { outOfScope: true } : {}),
        ...(knowledge === undefined ? {} : { knowledge }),
        ms: Math.round((performance.now() - started) * 1000) / 1000,
      };
      return Promise.resolve(result);
    },
  };
}
