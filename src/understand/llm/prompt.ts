/**
 * The prompt sent to a model: built only from the understanding input (the intents in
 * scope with a few examples, the slots with their kinds and rules, the state's question,
 * values already given, earlier turns when the bot opted in, knowledge sections found for
 * the message), with personal data redacted. Exported so the docs show exactly this.
 */
import type { KnowledgeHit } from '../knowledge/knowledge-base.js';
import type { IntentSpec, SlotSpec, UnderstandInput } from '../types.js';
import { baseLanguage } from '../text/fold.js';
import { redactPersonal } from './redact-personal.js';

/** One chat message of the OpenAI chat-completions API. */
export interface ChatMessage {
  readonly role: 'system' | 'user';
  readonly content: string;
}

/** Options of {@link buildPrompt}. */
export interface PromptOptions {
  /** Knowledge sections to ground an answer in (numbered [1], [2]… in the prompt). */
  readonly knowledge?: readonly KnowledgeHit[];
  /** Redact emails, phone numbers and `input.redactValues` (default true). */
  readonly redact?: boolean;
  /** Examples per intent: this many in the contact's language, one in another (default 3). */
  readonly examplesPerIntent?: number;
  /** Country for national phone formats when redacting. */
  readonly defaultCountry?: string;
  /** Characters of each knowledge section sent (default 1,200). */
  readonly knowledgeChars?: number;
}

function examplesOf(intent: IntentSpec, language: string, count: number): string[] {
  const own = Object.entries(intent.examples).filter(([l]) => baseLanguage(l) === language);
  const other = Object.entries(intent.examples).filter(([l]) => baseLanguage(l) !== language);
  return [...own.flatMap(([, e]) => e).slice(0, count), ...other.flatMap(([, e]) => e).slice(0, 1)];
}

function describeSlot(s: SlotSpec): string {
  const kind =
    s.kind === 'oneOf'
      ? `one of: ${(s.choices ?? []).map((c) => c.value).join(', ')}`
      : {
          text: 'text',
          number: 'number',
          integer: 'whole number',
          amount: 'amount of money, a number',
          date: 'date YYYY-MM-DD',
          time: 'time HH:MM (24 h)',
          datetime: 'date and time YYYY-MM-DDTHH:MM',
          email: 'email address',
          phone: 'phone number',
        }[s.kind];
  return `${s.name} (${kind}${s.description === undefined ? '' : `; ${s.description}`})`;
}

const FORMAT = `Reply with one JSON object and nothing else:
{"intent": "<an intent id below, or null when none fits>",
 "confidence": <0 to 1, how sure you are of the intent>,
 "alternatives": [{"intent": "<id>", "confidence": <0 to 1>}],
 "slots": {"<slot name>": <value>},
 "correction": <true when the message changes a value already given, else false>,
 "handoff": <true when the customer asks for a human person, else false>,
 "answer": "<an answer from the knowledge sections, or null>",
 "sources": [<numbers of the knowledge sections the answer uses>]}`;

/** The flow's out-of-scope examples in the contact's language (all of them when it has none). */
function outOfScopeOf(input: UnderstandInput, language: string): string[] {
  const all = Object.entries(input.outOfScope ?? {});
  const own = all.filter(([l]) => baseLanguage(l) === language);
  return (own.length > 0 ? own : all).flatMap(([, examples]) => examples);
}

/**
 * The chat messages for one input: a system message with the task, the intents, slots,
 * rules and knowledge, and a user message with the (redacted) conversation.
 * @example
 * const messages = buildPrompt(input, { knowledge: kb.search(input.text, input.locale) });
 */
export function buildPrompt(input: UnderstandInput, options: PromptOptions = {}): ChatMessage[] {
  const redact = options.redact ?? true;
  const clean = (text: string): string =>
    redact ? redactPersonal(text, input.redactValues ?? [], options.defaultCountry) : text;
  const language = baseLanguage(input.locale);
  const count = options.examplesPerIntent ?? 3;
  const now = new Date(input.now);
  const local = new Intl.DateTimeFormat('en-GB', {
    timeZone: input.timezone,
    weekday: 'long',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(now);
  const lines: string[] = [
    'You read one customer message for a business chatbot and say what it means. You never invent facts.',
    FORMAT,
    '',
    'Intents:',
  ];
  for (const intent of input.intents) {
    const examples = examplesOf(intent, language, count)
      .map((e) => JSON.stringify(e))
      .join(', ');
    lines.push(
      `- ${intent.id}${intent.description === undefined ? '' : `: ${intent.description}`}. Examples: ${examples}`,
    );
    if ((intent.slots ?? []).length > 0)
      lines.push(`  slots: ${(intent.slots ?? []).map(describeSlot).join('; ')}`);
  }
  const outOfScope = outOfScopeOf(input, language);
  if (outOfScope.length > 0)
    lines.push(
      '',
      `This bot does not handle requests like these; for them, and for any message like them, "intent" is null: ${outOfScope.map((e) => JSON.stringify(e)).join(', ')}`,
    );
  if (input.slots.length > 0)
    lines.push('', `Slots the current step can take: ${input.slots.map(describeSlot).join('; ')}`);
  if (input.question !== undefined)
    lines.push('', `The bot just asked: ${JSON.stringify(clean(input.question))}`);
  const filled = Object.entries(input.filled ?? {});
  if (filled.length > 0) {
    lines.push(
      '',
      `Values already given (a correction changes one): ${filled.map(([k, v]) => `${k}=${clean(String(v))}`).join('; ')}`,
    );
  }
  lines.push(
    '',
    'Rules: fill only the slots listed, only with values the message states; leave the others out.',
    `Dates as YYYY-MM-DD and times as HH:MM, relative ones ("tomorrow at 5pm") resolved from now: ${local} (${input.timezone}).`,
    'Numbers as JSON numbers ("two" is 2). A oneOf slot takes one of its listed values exactly.',
    'Text in [brackets] was hidden for privacy; never fill a slot with it.',
  );
  const hits = options.knowledge ?? [];
  if (hits.length > 0) {
    const max = options.knowledgeChars ?? 1200;
    lines.push(
      '',
      'Knowledge sections. If the message asks something these sections answer, write "answer" from them only, in the customer\'s language, and list their numbers in "sources". If they do not answer it, "answer" is null: say nothing they do not say.',
    );
    hits.forEach((h, i) => {
      const text =
        h.section.text.length > max ? `${h.section.text.slice(0, max)}…` : h.section.text;
      lines.push(`[${i + 1}] ${h.section.heading} (${h.section.file}):`, text);
    });
  } else
    lines.push(
      '',
      '"answer" is null and "sources" is empty: there is no knowledge for this message.',
    );
  const conversation: string[] = [];
  for (const turn of input.transcript ?? [])
    conversation.push(`${turn.role === 'bot' ? 'Bot' : 'Customer'}: ${clean(turn.text)}`);
  conversation.push(`Customer (${input.locale}): ${clean(input.text)}`);
  return [
    { role: 'system', content: lines.join('\n') },
    { role: 'user', content: conversation.join('\n') },
  ];
}
