/** Email addresses in free text. */
import type { Span } from './span.js';

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;

/** Every email address in `text`, lower-cased. */
export function findEmails(text: string): (Span & { value: string })[] {
  return [...text.matchAll(EMAIL)].map((m) => ({
    value: m[0].toLowerCase(),
    start: m.index,
    end: m.index + m[0].length,
  }));
}
