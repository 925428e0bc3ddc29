/**
 * Phone numbers in free text, normalised to E.164 by libphonenumber-js (Google's
 * libphonenumber metadata): national formats need a country (the locale's region, the
 * understander's `defaultCountry`, or the countries of the contact's language); `+`-prefixed numbers are read anywhere.
 */
import { findPhoneNumbersInText, type CountryCode } from 'libphonenumber-js';
import type { Span } from './span.js';

/**
 * Countries tried, in order, for national formats when the locale has no region and the
 * understander no `defaultCountry`: where the language is most spoken by the numbers'
 * owners. libphonenumber only accepts a number valid in the country tried, so a UK
 * "07911 123456" under `en` is not misread as a US number: it is invalid there.
 */
const LANGUAGE_COUNTRIES: Readonly<Record<string, readonly CountryCode[]>> = {
  en: ['US', 'GB', 'IE', 'AU', 'CA'],
  es: ['ES', 'MX', 'AR', 'CO', 'CL', 'US'],
  pt: ['BR', 'PT'],
  fr: ['FR', 'BE', 'CA'],
  de: ['DE', 'AT', 'CH'],
  it: ['IT'],
};

/**
 * Every phone number in `text`, as E.164 (`+447700900123`): national formats read in
 * `country` when given, else in the countries of `language` (the first that finds any).
 */
export function findPhones(
  text: string,
  country?: string,
  language = '',
): (Span & { value: string })[] {
  const countries =
    country !== undefined ? [country as CountryCode] : (LANGUAGE_COUNTRIES[language] ?? []);
  for (const c of countries) {
    const found = findPhoneNumbersInText(text, c);
    if (found.length > 0)
      return found.map((f) => ({ value: f.number.number, start: f.startsAt, end: f.endsAt }));
  }
  return findPhoneNumbersInText(text).map((f) => ({
    value: f.number.number,
    start: f.startsAt,
    end: f.endsAt,
  }));
}
