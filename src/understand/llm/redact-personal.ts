/**
 * Personal data out of what a model is sent: email addresses become `[email]`, phone
 * numbers `[phone]` (libphonenumber-js, plus any run of 7+ digits), and every value given
 * in `redactValues` (the contact's name, address…) `[redacted]`, case-insensitively.
 */
import { findEmails } from '../builtin/entities/email.js';
import { findPhones } from '../builtin/entities/phone.js';

const DIGIT_RUN = /\+?\d[\d\s().-]{5,}\d/g;

/**
 * `text` with personal data replaced by placeholders.
 * @example
 * redactPersonal('call me on +44 7911 123456, Ana', ['Ana']); // 'call me on [phone], [redacted]'
 */
export function redactPersonal(
  text: string,
  values: readonly string[] = [],
  defaultCountry?: string,
): string {
  let out = text;
  for (const e of findEmails(out).reverse())
    out = `${out.slice(0, e.start)}[email]${out.slice(e.end)}`;
  for (const p of findPhones(out, defaultCountry).reverse()) {
    out = `${out.slice(0, p.start)}[phone]${out.slice(p.end)}`;
  }
  for (const v of [...values].sort((a, b) => b.length - a.length)) {
    if (v.trim().length < 2) continue;
    const escaped = v.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // Whole words only: a name "Ana" is not taken out of "banana".
    out = out.replace(
      new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'giu'),
      '[redacted]',
    );
  }
  return out.replace(DIGIT_RUN, (run) => (run.replace(/\D/g, '').length >= 7 ? '[phone]' : run));
}
