import { renderView } from './message-view.js';
import type { SentMessage, TestConversation } from './test-conversation.js';

/** A text matcher: a substring or a regular expression. */
export type TextMatch = string | RegExp;

/** Expectations on what the bot sent (see {@link expectSent}). Each returns the match. */
export interface SentExpectations {
  /** A text message matching `match`. */
  text(match: TextMatch): SentMessage;
  /** Reply buttons with exactly these titles (and a body matching `body`, when given). */
  buttons(titles: readonly string[], body?: TextMatch): SentMessage;
  /** A list with exactly these row titles (and a body matching `body`, when given). */
  list(titles: readonly string[], body?: TextMatch): SentMessage;
  /** A template with this name and, when given, exactly these parameter values. */
  template(name: string, parameters?: readonly string[]): SentMessage;
  /** A message of this type (image, document, location, contacts, ...). */
  type(type: SentMessage['type']): SentMessage;
  /** Nothing at all was sent. */
  nothing(): void;
}

/** Thrown by failed expectations; the message carries the conversation transcript. */
export class ExpectationError extends Error {
  override readonly name = 'ExpectationError';
}

const matches = (text: string, m: TextMatch): boolean =>
  typeof m === 'string' ? text.includes(m) : m.test(text);
const same = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Expectations on the messages the bot sent in the last turn (since your last action),
 * or over the whole conversation with `{ all: true }`. Failures show what was sent and
 * the transcript.
 * @example
 * await chat.say('hi');
 * expectSent(chat).text(/Hi Ada/);
 * expectSent(chat).buttons(['Common questions', 'Talk to a person', 'Nothing, thanks']);
 * expectSent(chat, { all: true }).template('appointment_reminder', ['Ada Lovelace', '2026-03-14', '10:00']);
 */
export function expectSent(
  conversation: TestConversation,
  options: { all?: boolean } = {},
): SentExpectations {
  const pool = (): SentMessage[] =>
    options.all === true ? conversation.sent() : conversation.turn();
  const find = (what: string, ok: (m: SentMessage) => boolean): SentMessage => {
    const messages = pool();
    const hit = messages.find(ok);
    if (hit !== undefined) return hit;
    const scope = options.all === true ? 'in the conversation' : 'in the last turn';
    const got =
      messages.length === 0
        ? '  (nothing)'
        : messages.flatMap((m) => renderView(m).map((l) => `  ${l}`)).join('\n');
    throw new ExpectationError(
      `expected the bot to send ${what} ${scope}; it sent:\n${got}\n\nTranscript:\n${conversation.transcript()}`,
    );
  };
  const show = (m: TextMatch): string => (typeof m === 'string' ? JSON.stringify(m) : String(m));
  return {
    text: (m) => find(`a text matching ${show(m)}`, (s) => s.type === 'text' && matches(s.text, m)),
    buttons: (titles, body) =>
      find(
        `buttons ${JSON.stringify(titles)}`,
        (s) =>
          s.type === 'buttons' &&
          same(
            s.options.map((o) => o.title),
            titles,
          ) &&
          (body === undefined || matches(s.text, body)),
      ),
    list: (titles, body) =>
      find(
        `a list ${JSON.stringify(titles)}`,
        (s) =>
          s.type === 'list' &&
          same(
            s.options.map((o) => o.title),
            titles,
          ) &&
          (body === undefined || matches(s.text, body)),
      ),
    template: (name, parameters) =>
      find(
        `template ${name}${parameters === undefined ? '' : ` with ${JSON.stringify(parameters)}`}`,
        (s) =>
          s.type === 'template' &&
          s.name === name &&
          (parameters === undefined || same(s.parameters, parameters)),
      ),
    type: (type) => find(`a ${type} message`, (s) => s.type === type),
    nothing() {
      const messages = pool();
      if (messages.length === 0) return;
      const got = messages.flatMap((m) => renderView(m).map((l) => `  ${l}`)).join('\n');
      throw new ExpectationError(
        `expected the bot to send nothing; it sent:\n${got}\n\nTranscript:\n${conversation.transcript()}`,
      );
    },
  };
}
