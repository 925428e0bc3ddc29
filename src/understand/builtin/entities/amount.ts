/**
 * Amounts of money: a number with a currency symbol, code or word before or after it
 * (`£12.50`, `12,50 €`, `20 dollars`, `USD 5`, `diez euros`). The value is the number; the
 * ISO 4217 code goes to `unit`.
 */
import { findNumbers } from '../../text/numbers.js';
import type { Span } from './span.js';

const CURRENCIES: Record<string, string> = {
  $: 'USD',
  usd: 'USD',
  dollar: 'USD',
  dollars: 'USD',
  bucks: 'USD',
  dolar: 'USD',
  dolares: 'USD',
  '€': 'EUR',
  eur: 'EUR',
  euro: 'EUR',
  euros: 'EUR',
  '£': 'GBP',
  gbp: 'GBP',
  pound: 'GBP',
  pounds: 'GBP',
  quid: 'GBP',
  libra: 'GBP',
  libras: 'GBP',
  mxn: 'MXN',
  peso: 'MXN',
  pesos: 'MXN',
};

/** An amount found in the text. */
export interface AmountMatch extends Span {
  readonly value: number;
  readonly currency: string;
}

const BEFORE = /(\$|€|£|\b(?:usd|eur|gbp|mxn))\s*$/;
const AFTER = /^\s*(\$|€|£|[a-z]+)/;

/** Every amount in `folded` text (see fold()), in order. */
export function findAmounts(folded: string, language = ''): AmountMatch[] {
  const out: AmountMatch[] = [];
  for (const n of findNumbers(folded, language)) {
    if (n.weak) continue;
    const before = BEFORE.exec(folded.slice(Math.max(0, n.start - 5), n.start));
    if (before?.[1] !== undefined) {
      const currency = CURRENCIES[before[1]];
      if (currency !== undefined) {
        out.push({ value: n.value, currency, start: n.start - before[0].length, end: n.end });
        continue;
      }
    }
    const after = AFTER.exec(folded.slice(n.end, n.end + 12));
    const currency = after?.[1] === undefined ? undefined : CURRENCIES[after[1]];
    if (after !== null && currency !== undefined) {
      out.push({ value: n.value, currency, start: n.start, end: n.end + after[0].length });
    }
  }
  return out;
}
