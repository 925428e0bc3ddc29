/**
 * The understanding contract: what the engine asks an understander about one inbound text,
 * and the small, typed proposal it gets back. An understander proposes; the flow decides
 * (it accepts a proposal only where it allows it, and every captured value still passes
 * the capture's own rules). A {@link Understanding} is plain JSON: the engine records it in
 * the conversation document before any effect, so a retry never asks again.
 */

/** What a slot (an intent's parameter or an open `ask` capture) holds. */
export type SlotKind =
  | 'text'
  | 'number'
  | 'integer'
  | 'amount'
  | 'date'
  | 'time'
  | 'datetime'
  | 'email'
  | 'phone'
  | 'oneOf';

/** One value a `oneOf` slot can take, with the words that mean it. */
export interface SlotChoice {
  readonly value: string;
  /** Other ways to say it (any case, accents optional), per the bot's own words. */
  readonly synonyms?: readonly string[];
}

/** A slot the understander may fill. */
export interface SlotSpec {
  /** Variable name the value goes to (an `ask`'s var or an intent's slot name). */
  readonly name: string;
  readonly kind: SlotKind;
  /** For `oneOf`: the allowed values and their synonyms. */
  readonly choices?: readonly SlotChoice[];
  /** A short description or the question that asks for it (given to a model as is). */
  readonly description?: string;
}

/** An intent in scope for this message. */
export interface IntentSpec {
  readonly id: string;
  /** Example phrases per locale (`en`, `es`, …), written by the bot author. */
  readonly examples: Readonly<Record<string, readonly string[]>>;
  /** Slots this intent can carry. */
  readonly slots?: readonly SlotSpec[];
  /** A one-line description (given to a model as is). */
  readonly description?: string;
}

/** A menu option of the current state, so typed synonyms can be recognised. */
export interface OptionSpec {
  readonly id: string;
  readonly title: string;
  readonly keywords?: readonly string[];
}

/** An earlier turn, for a model's context (never sent unless the bot allows it). */
export interface Turn {
  readonly role: 'customer' | 'bot';
  readonly text: string;
}

/** Everything an understander is told about one inbound text. */
export interface UnderstandInput {
  readonly text: string;
  /** The contact's locale (`en`, `es`, `pt-BR`…); examples of that language weigh most. */
  readonly locale: string;
  /** IANA timezone dates and times are resolved in (default `UTC`). */
  readonly timezone: string;
  /** Epoch ms "now", for relative dates ("tomorrow at 5"). */
  readonly now: number;
  /** Intents in scope: the state's and the bot's global ones. */
  readonly intents: readonly IntentSpec[];
  /** Slots the current state can take from free text (open `ask` captures first). */
  readonly slots: readonly SlotSpec[];
  /**
   * Requests the bot does not handle, per locale, written by the author (the flow's
   * `understand.outOfScope`): a message closest to these is not understood. Optional.
   */
  readonly outOfScope?: Readonly<Record<string, readonly string[]>>;
  /** Slots already filled, by name: a correction ("no, make it 3") changes one of them. */
  readonly filled?: Readonly<Record<string, string | number | boolean | null>>;
  /** The current menu's options. */
  readonly options?: readonly OptionSpec[];
  /** The question the state asked (its prompt text), when it asked one. */
  readonly question?: string;
  /** Earlier turns, newest last; only when the bot opts in. */
  readonly transcript?: readonly Turn[];
  /** Look in the bot's knowledge for an answer when no intent fits. */
  readonly knowledge?: boolean;
  /**
   * Values a model must never see (the contact's name, address, account number…): an
   * understander that calls a model replaces them in everything it sends. Optional.
   */
  readonly redactValues?: readonly string[];
}

/** A slot value found in the text. */
export interface SlotValue {
  /** Normalised value: a number, an ISO date `YYYY-MM-DD`, a time `HH:MM`, an E.164 phone… */
  readonly value: string | number | boolean;
  /** The words it was read from. */
  readonly text?: string;
  /** What the value counts, when the text says: an ISO 4217 currency for an `amount` (`EUR`). */
  readonly unit?: string;
}

/** An intent and how sure the understander is of it (0 to 1). */
export interface ScoredIntent {
  readonly id: string;
  readonly confidence: number;
}

/** Where a knowledge answer came from. */
export interface KnowledgeSource {
  /** File path relative to the bot. */
  readonly file: string;
  /** The section's heading path, e.g. `Delivery > Areas`. */
  readonly heading: string;
}

/** An answer from the bot's knowledge files. */
export interface KnowledgeAnswer {
  readonly text: string;
  readonly confidence: number;
  readonly sources: readonly KnowledgeSource[];
}

/** Who answered. `builtin` also when a model failed and the built-in one stood in. */
export type UnderstandingSource = 'builtin' | 'llm' | 'scripted';

/**
 * An understander's proposal for one inbound text. Every field is optional but `source`:
 * an empty proposal means "not understood" (the flow's `otherwise`).
 */
export interface Understanding {
  readonly source: UnderstandingSource;
  /** The best intent, if any. */
  readonly intent?: ScoredIntent;
  /** The next best intents, best first (the flow clarifies between the top two when close). */
  readonly alternatives?: readonly ScoredIntent[];
  /** Slot values found, by slot name (an `ask` var or an intent slot). */
  readonly slots?: Readonly<Record<string, SlotValue>>;
  /** The text corrects values already given (`filled`): "no, make it 3". */
  readonly correction?: boolean;
  /** The customer asks for a person. */
  readonly handoff?: boolean;
  /**
   * The text is closest to the flow's out-of-scope examples (`understand.outOfScope`): not
   * understood, whatever intent came close (its confidence is lowered under the threshold).
   */
  readonly outOfScope?: boolean;
  /** An answer from knowledge (only when `knowledge` was asked for and one was found). */
  readonly knowledge?: KnowledgeAnswer;
  /** Why a model's answer was not used (timeout, budget, invalid, error, crashed). */
  readonly fallback?: string;
  /** Wall time it took, ms. */
  readonly ms?: number;
}

/** Understands free text. Implementations: builtin (offline, the default), llm, scripted. */
export interface Understander {
  /** A short name for logs and metrics (`builtin`, `llm`, `scripted`). */
  readonly name: string;
  /**
   * Proposes what `input.text` means. Never throws for a text it cannot place (it answers
   * an empty proposal); `signal` aborts a slow call.
   */
  understand(input: UnderstandInput, signal?: AbortSignal): Promise<Understanding>;
  /** Re-indexes knowledge after a hot reload (optional). */
  close?(): Promise<void>;
  /**
   * Optional: receives the bot's logger when the bot is created (an understander built
   * before the bot, like the default one, has none of its own yet).
   */
  useLogger?(logger: UnderstanderLogger): void;
}

/** What an understander may log to: warnings only (a model slow, down or nonsensical). */
export interface UnderstanderLogger {
  warn(message: string, meta?: Record<string, unknown>): void;
}
