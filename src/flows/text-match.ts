/**
 * Normalises typed text for matching option titles, keywords and triggers: Unicode NFD,
 * combining marks removed, lower case, inner whitespace collapsed, trimmed.
 * @example
 * normalizeText('  Crédito  ') === normalizeText('credito'); // true
 */
export function normalizeText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** True when typed text equals one of the candidates after normalisation. */
export function matchesAny(text: string, candidates: readonly string[]): boolean {
  const t = normalizeText(text);
  return t !== '' && candidates.some((c) => normalizeText(c) === t);
}

/** An example as intents fold it for comparison: case, accents, punctuation and spacing left out. */
export function exampleKey(example: string): string {
  return normalizeText(example)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
