/**
 * A bot's knowledge: Markdown sections indexed with MiniSearch (BM25+, fuzzy and prefix
 * matching), searched per question. A hit's confidence is the share of the question's
 * content words (weighted by how rare they are in the knowledge) that the section
 * contains: "do you deliver to Manchester?" against sections that never name Manchester
 * gets a low confidence however well "deliver" matches, so it is not answered.
 */
import MiniSearch from 'minisearch';
import { LIMITS } from '../../core/limits.js';
import type { KnowledgeAnswer } from '../types.js';
import { baseLanguage } from '../text/fold.js';
import { splitMarkdown, type KnowledgeSection } from './markdown-sections.js';
import { knowledgeTerms, QUESTION_WORDS } from './terms.js';

/** A knowledge file's path and content. */
export interface KnowledgeFile {
  readonly path: string;
  readonly content: string;
}

/** A section found for a question. */
export interface KnowledgeHit {
  readonly section: KnowledgeSection;
  /** MiniSearch's BM25+ score (unbounded, for ranking). */
  readonly score: number;
  /** Share of the question's content words found in the section, IDF-weighted, 0..1. */
  readonly confidence: number;
}

/** Knowledge answers below this confidence are not given (the answer is "I don't know"). */
export const DEFAULT_KNOWLEDGE_THRESHOLD = 0.6;
/** Shortest term matched with a typo. */
const FUZZY_MIN_LENGTH = 4;
/** Sections in another language than the contact's rank lower by this factor. */
const OTHER_LANGUAGE = 0.7;

/** Searchable Markdown sections. Build with {@link loadKnowledge}. */
export class KnowledgeBase {
  #sections: KnowledgeSection[] = [];
  #index = KnowledgeBase.#empty();
  #df = new Map<string, number>();

  constructor(files: readonly KnowledgeFile[]) {
    this.reindex(files);
  }

  static #empty(): MiniSearch {
    return new MiniSearch({
      fields: ['heading', 'text'],
      processTerm: (term) => knowledgeTerms(term)[0] ?? null,
      searchOptions: {
        boost: { heading: 2 },
        // A typo in a long word is one; a short word one letter off is another word
        // ("pay" is not "day"), so short terms match exactly (or as a prefix).
        fuzzy: (term) => (term.length >= FUZZY_MIN_LENGTH ? 0.2 : false),
        prefix: true,
        combineWith: 'OR',
      },
    });
  }

  /** The sections indexed now. */
  get sections(): readonly KnowledgeSection[] {
    return this.#sections;
  }

  /** Replaces the whole index with `files` (hot reload). */
  reindex(files: readonly KnowledgeFile[]): void {
    const sections = files.flatMap((f) => splitMarkdown(f.path, f.content));
    const index = KnowledgeBase.#empty();
    index.addAll(sections.map((s, id) => ({ id, heading: s.heading, text: s.text })));
    const df = new Map<string, number>();
    for (const s of sections) {
      for (const t of new Set(knowledgeTerms(`${s.heading} ${s.text}`)))
        df.set(t, (df.get(t) ?? 0) + 1);
    }
    this.#sections = sections;
    this.#index = index;
    this.#df = df;
  }

  /**
   * How much a term says, by how few sections have it. A term no section has weighs as
   * one that a single section has: it is what the question is about (a place, a dish the
   * files never name), not a rarer word than the rarest the files use.
   */
  #idf(term: string): number {
    return Math.log((this.#sections.length + 1) / (Math.max(1, this.#df.get(term) ?? 0) + 0.5));
  }

  /**
   * Sections matching `query`, best first (at most `limit`); sections in `locale`'s
   * language rank first when the files declare languages.
   */
  search(query: string, locale?: string, limit = 3): KnowledgeHit[] {
    const terms = [...new Set(knowledgeTerms(query))].filter((t) => !QUESTION_WORDS.has(t));
    if (terms.length === 0 || this.#sections.length === 0) return [];
    const total = terms.reduce((sum, t) => sum + this.#idf(t), 0);
    const language = locale === undefined ? undefined : baseLanguage(locale);
    const hits: KnowledgeHit[] = [];
    for (const r of this.#index.search(terms.join(' '))) {
      const section = this.#sections[r.id as number];
      if (section === undefined) continue;
      const matched = r.queryTerms.reduce((sum, t) => sum + this.#idf(t), 0);
      const other =
        language !== undefined &&
        section.locale !== undefined &&
        baseLanguage(section.locale) !== language;
      const factor = other ? OTHER_LANGUAGE : 1;
      hits.push({
        section,
        score: r.score * factor,
        confidence: Math.min(1, matched / total) * factor,
      });
    }
    return hits.sort((a, b) => b.confidence - a.confidence || b.score - a.score).slice(0, limit);
  }

  /**
   * The best section as an answer, trimmed to the text body limit (spec 8: 4,096
   * characters), or undefined when no section reaches `threshold`.
   */
  answer(
    query: string,
    locale?: string,
    threshold = DEFAULT_KNOWLEDGE_THRESHOLD,
  ): KnowledgeAnswer | undefined {
    const best = this.search(query, locale, 1)[0];
    if (best === undefined || best.confidence < threshold) return undefined;
    return {
      text: trimText(best.section.text, LIMITS.textBody.max),
      confidence: Math.round(best.confidence * 1000) / 1000,
      sources: [{ file: best.section.file, heading: best.section.heading }],
    };
  }
}

/** `text` cut to `max` code points at a paragraph, sentence or word end, with `…`. */
export function trimText(text: string, max: number): string {
  const points = [...text];
  if (points.length <= max) return text;
  const cut = points.slice(0, max - 1).join('');
  const at = Math.max(cut.lastIndexOf('\n\n'), cut.lastIndexOf('. '), cut.lastIndexOf(' '));
  return `${(at > max / 2 ? cut.slice(0, at + 1) : cut).trimEnd()}…`;
}

/**
 * Builds a {@link KnowledgeBase} from Markdown files' contents.
 * @example
 * const kb = loadKnowledge([{ path: 'faq.md', content: '# Delivery\nWe deliver to Leeds.' }]);
 * kb.answer('do you deliver to Leeds?');
 */
export function loadKnowledge(files: readonly KnowledgeFile[]): KnowledgeBase {
  return new KnowledgeBase(files);
}
