/**
 * Phone numbers in free text, normalised to E.164 by libphonenumber-js (Google's
 * libphonenumber metadata): national formats need a default country (the locale's region
 * or the understander's `defaultCountry`); `+`-prefixed numbers are read anywhere.
 */
import { findPhoneNumbersInText, type CountryCode } from 'libphonenumber-js';
import type { Span } from './span.js';

/** Every phone number in `text`, as E.164 (`+447700900123`). */
export function findPhones(text: string, defaultCountry?: string): (Span & { value: string })[] {
  const country = defaultCountry as CountryCode | undefined;
  const found =
    country === undefined ? findPhoneNumbersInText(text) : findPhoneNumbersInText(text, country);
  return found.map((f) => ({ value: f.number.number, start: f.startsAt, end: f.endsAt }));
}
