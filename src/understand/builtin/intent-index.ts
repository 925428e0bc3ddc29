/**
 * The intents' examples as TF-IDF vectors in an inverted index. A message's raw score for
 * an intent blends two views:
 * - its cosine similarity to the intent's best example (in the contact's language first),
 *   which rewards saying the same thing as one example;
 * - its coverage: the share of the message's words (weighted by how few intents use them)
 *   that the intent's examples use anywhere, which pools the words of all examples and
 *   pulls a message full of words no intent knows (out of scope) down.
 */
import type { IntentSpec } from '../types.js';
import { baseLanguage } from '../text/fold.js';
import { ChoiceSlots } from './choice-slots.js';
import { SoftmaxModel } from './softmax.js';
import { contentWords, featurise, evidenceOf, Vocabulary, type Features } from './features.js';

/** Examples in another language than the contact's count this much (when the intent has examples in the contact's). */
const OTHER_LANGUAGE_WEIGHT = 0.9;
/** Weight of coverage in the blend (the rest is the best example's cosine). */
const COVERAGE_SHARE = 0.5;
/** An unknown word weighs this much more than a word of one intent only, in coverage. */
const UNKNOWN_WORD_FACTOR = 0.6;

/** A feature's examples and its weight in each, in example order (typed arrays: the hot loop). */
interface Postings {
  readonly examples: Int32Array;
  readonly weights: Float64Array;
}

/** An intent's raw similarity to a message, before calibration. */
export interface RawScore {
  readonly id: string;
  /** Blend of best-example cosine and coverage, in 0..1. */
  readonly similarity: number;
  /** The classifier's probability of this intent (all intents and built-ins sum to 1). */
  readonly probability: number;
}

const isCoverageFeature = (name: string): boolean => !name.startsWith('t:');

/** Scores messages against the examples of a fixed set of intents. */
export class IntentIndex {
  readonly intents: readonly IntentSpec[];
  readonly vocabulary = new Vocabulary();
  readonly #choices: ChoiceSlots;
  readonly #postings = new Map<string, Postings>();
  readonly #idf = new Map<string, number>();
  readonly #unknownIdf: number;
  /** Coverage: feature → the intents using it; its weight by intent frequency. */
  readonly #featureIntents = new Map<string, Set<number>>();
  readonly #intentIdf = new Map<string, number>();
  readonly #unknownIntentIdf: number;
  /** Weight of one word used by two intents: a message with less in common is weak evidence. */
  readonly #evidence: number;
  readonly #exampleIntent: number[] = [];
  readonly #exampleLanguage: string[] = [];
  readonly #intentLanguages: Set<string>[] = [];

  /** Intents scored by their best example only (no coverage): the built-in handoff phrases. */
  readonly #exampleOnly: ReadonlySet<string>;

  readonly #model: SoftmaxModel;
  /** The built-in intent matched by its words only (chatter). */
  readonly #wordsOnly: string | undefined;

  constructor(
    intents: readonly IntentSpec[],
    exampleOnly: readonly string[] = [],
    wordsOnly?: string,
  ) {
    this.intents = intents;
    this.#exampleOnly = new Set(exampleOnly);
    this.#wordsOnly = wordsOnly;
    this.#choices = new ChoiceSlots(intents);
    const examples: Features[] = [];
    for (const intent of intents) {
      for (const [locale, phrases] of Object.entries(intent.examples)) {
        const language = baseLanguage(locale);
        for (const phrase of phrases) {
          for (const w of contentWords(phrase, language)) this.vocabulary.add(w.surface, w.root);
        }
      }
    }
    intents.forEach((intent, i) => {
      const languages = new Set<string>();
      for (const [locale, phrases] of Object.entries(intent.examples)) {
        const language = baseLanguage(locale);
        languages.add(language);
        for (const phrase of phrases) {
          const all = featurise(phrase, {
            choices: this.#choices,
            language,
            vocabulary: this.vocabulary,
          });
          const features = this.#keep(intent.id, all);
          examples.push(features);
          this.#exampleIntent.push(i);
          this.#exampleLanguage.push(language);
          for (const name of features.keys()) {
            const set = this.#featureIntents.get(name) ?? new Set<number>();
            set.add(i);
            this.#featureIntents.set(name, set);
          }
        }
      }
      this.#intentLanguages.push(languages);
    });
    const df = new Map<string, number>();
    for (const f of examples) for (const name of f.keys()) df.set(name, (df.get(name) ?? 0) + 1);
    const n = examples.length;
    for (const [name, count] of df) this.#idf.set(name, Math.log((n + 1) / (count + 1)) + 1);
    this.#unknownIdf = Math.log(n + 1) + 1;
    const k = intents.length;
    for (const [name, set] of this.#featureIntents)
      this.#intentIdf.set(name, Math.log(1 + k / set.size));
    this.#unknownIntentIdf = Math.log(1 + k) * UNKNOWN_WORD_FACTOR;
    this.#evidence = Math.log(1 + k / 2);
    const vectors = examples.map((features) => this.#weigh(features));
    this.#model = new SoftmaxModel(vectors, this.#exampleIntent, intents.length);
    const lists = new Map<string, { example: number; weight: number }[]>();
    examples.forEach((_, example) => {
      for (const [name, weight] of vectors[example] as Map<string, number>) {
        const list = lists.get(name) ?? [];
        list.push({ example, weight });
        lists.set(name, list);
      }
    });
    for (const [name, list] of lists)
      this.#postings.set(name, {
        examples: Int32Array.from(list, (p) => p.example),
        weights: Float64Array.from(list, (p) => p.weight),
      });
  }

  /**
   * The features a built-in phrase is indexed with. Values ("at 4pm", "two") are never a
   * sign of a request for a person or of chatter; for chatter, lexicon meanings are not
   * either ("quiero" ~ want is in every bot's examples): it matches by its own words only.
   */
  #keep(id: string, features: Features): Features {
    if (!this.#exampleOnly.has(id)) return features;
    const keep =
      id === this.#wordsOnly
        ? (name: string) => /^[wpq]:/.test(name) && name !== 'w:#'
        : (name: string) => evidenceOf(name) > 0;
    return new Map([...features].filter(([name]) => keep(name)));
  }

  /** TF-IDF weights, L2-normalised. */
  #weigh(features: Features): Map<string, number> {
    const out = new Map<string, number>();
    let norm = 0;
    for (const [name, tf] of features) {
      const w = tf * (this.#idf.get(name) ?? this.#unknownIdf);
      out.set(name, w);
      norm += w * w;
    }
    norm = Math.sqrt(norm);
    if (norm > 0) for (const [name, w] of out) out.set(name, w / norm);
    return out;
  }

  /**
   * Per intent: the IDF-weighted share of the message's features it uses, and the
   * evidence, that weight itself relative to one word shared by two intents (capped at 1):
   * "hello how are you" shares only common words with any intent, so little evidence.
   */
  #coverage(features: Features): { share: Float64Array; evidence: Float64Array } {
    const covered = new Float64Array(this.intents.length);
    const evidence = new Float64Array(this.intents.length);
    let total = 0;
    for (const [name, tf] of features) {
      if (!isCoverageFeature(name)) continue;
      const w = tf * (this.#intentIdf.get(name) ?? this.#unknownIntentIdf);
      total += w;
      const strength = evidenceOf(name);
      for (const i of this.#featureIntents.get(name) ?? []) {
        covered[i] = (covered[i] ?? 0) + w;
        evidence[i] = (evidence[i] ?? 0) + w * strength;
      }
    }
    for (let i = 0; i < covered.length; i++) {
      evidence[i] = Math.min(1, (evidence[i] ?? 0) / this.#evidence);
      if (total > 0) covered[i] = (covered[i] ?? 0) / total;
    }
    return { share: covered, evidence };
  }

  /** Every intent's raw score for `text`, best first. */
  score(text: string, locale: string, when?: { now: number; timezone: string }): RawScore[] {
    const language = baseLanguage(locale);
    const features = featurise(text, {
      vocabulary: this.vocabulary,
      choices: this.#choices,
      language,
      ...when,
    });
    const query = this.#weigh(features);
    const dots = new Float64Array(this.#exampleIntent.length);
    for (const [name, weight] of query) {
      const list = this.#postings.get(name);
      if (list === undefined) continue;
      const { examples, weights } = list;
      for (let p = 0; p < examples.length; p++) {
        const e = examples[p] as number;
        dots[e] = (dots[e] ?? 0) + weight * (weights[p] as number);
      }
    }
    const best = new Float64Array(this.intents.length);
    const hasOwnOf = this.#intentLanguages.map((languages) => languages.has(language));
    for (let e = 0; e < dots.length; e++) {
      const intent = this.#exampleIntent[e] as number;
      const own = this.#exampleLanguage[e] === language;
      const hasOwn = hasOwnOf[intent] ?? false;
      const s = (dots[e] ?? 0) * (own || !hasOwn ? 1 : OTHER_LANGUAGE_WEIGHT);
      if (s > (best[intent] ?? 0)) best[intent] = s;
    }
    const { share, evidence } = this.#coverage(features);
    const probability = this.#model.predict(query);
    const out: RawScore[] = this.intents.map((intent, i) => ({
      id: intent.id,
      probability: probability[i] ?? 0,
      similarity: this.#exampleOnly.has(intent.id)
        ? (best[i] ?? 0)
        : Math.min(1, (best[i] ?? 0) * (1 - COVERAGE_SHARE) + (share[i] ?? 0) * COVERAGE_SHARE) *
          (evidence[i] ?? 0),
    }));
    return out.sort((a, b) => b.similarity - a.similarity);
  }
}
