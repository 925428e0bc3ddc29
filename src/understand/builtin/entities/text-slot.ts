/**
 * Free-text slot values (an address, a place) by a heuristic: the words after a cue
 * (see {@link findPlaces}) up to the next value
 * already taken (a date, a number of another slot…), a clause end (. ! ? ;) or a filler
 * word ("instead", "please", "por favor"), kept only when it looks like a place: it starts
 * with a capital letter or a street word, or with a house number followed by a capital or
 * a street word. Lower-case place names without a street word ("deliver to headingley")
 * and addresses with no cue before them are missed.
 */
import { fold } from '../../text/fold.js';
import type { Claims, Span } from './span.js';

const CUES: Record<string, RegExp> = {
  en: /(?:(?:^|[\s,])(?:to|at|for|is|into|in|near|around)|:)(?=\s)/g,
  es: /(?:(?:^|[\s,])(?:a|en|para|hacia|es|cerca de)|:)(?=\s)/g,
};
const ANY_CUE =
  /(?:(?:^|[\s,])(?:to|at|for|is|into|in|near|around|a|en|para|hacia|es|cerca de)|:)(?=\s)/g;
const ARTICLE = /^(?:the|my|la|el|mi)\s+/i;
/**
 * Where a value ends: a clause end, a filler word, a comparison ("Porto than Lisbon",
 * "Sevilla que a Valencia": the value is the first place), or a comma that opens a new
 * clause in lower case ("Lisbon, this is the second time"; "14 Park Road, Leeds" goes on).
 */
const STOP =
  /[.!?;]|,\s*(?=\p{Ll})|\s(?:instead|please|pls|thanks|asap|since|than|por favor|gracias|mejor|en vez|en lugar|desde|que)\b/u;
/** A cue or article left at the end of a value before a taken span ("Rome to | 9 December", "París al | 10 de diciembre"). */
const TRAILING =
  /[\s,]+(?:on|at|for|by|the|and|since|from|to|el|la|a|al|de|del|para|y|en|desde)?\s*$/i;
const STREET =
  /^(?:street|st|road|rd|avenue|ave|av|avda|avenida|lane|ln|drive|dr|way|close|court|ct|place|pl|square|sq|crescent|terrace|grove|gardens|hill|park|calle|c|plaza|paseo|camino|carrera|carretera|ronda|rua|travesia)\b/i;

function looksLikePlace(value: string): boolean {
  const words = value.split(/\s+/).filter((w) => w !== '');
  const first = words[0] ?? '';
  if (/^\p{Lu}/u.test(first) && !/^I$/.test(first)) return true;
  if (STREET.test(fold(first))) return true;
  if (/^\d+[a-z]?$/i.test(first)) {
    const rest = words.slice(1);
    return rest.some((w) => /^\p{Lu}/u.test(w) || STREET.test(fold(w)));
  }
  return false;
}

/**
 * Candidate free-text values in `text`, in order, none touching a claimed span; the cues
 * are the contact's language's (English `to`, `at`, `for`, `is`, `into`, `in`, `near`,
 * `around`; Spanish `a`, `en`, `para`, `hacia`, `es`, `cerca de`; `:` in both), all of them for another language.
 */
export function findPlaces(
  text: string,
  claims: Claims,
  language: string,
): (Span & { value: string })[] {
  const out: (Span & { value: string })[] = [];
  for (const m of text.matchAll(CUES[language] ?? ANY_CUE)) {
    let start = m.index + m[0].length;
    while (text[start] === ' ') start += 1;
    const article = ARTICLE.exec(text.slice(start));
    if (article !== null) start += article[0].length;
    if (claims.taken({ start, end: start + 1 })) continue;
    let end = claims.nextStart(start, text.length);
    const stop = STOP.exec(text.slice(start, end));
    if (stop !== null) end = start + stop.index;
    let value = text.slice(start, end).replace(TRAILING, '');
    value = value.replace(/[\s,]+$/, '');
    if (value.length < 2 || !looksLikePlace(value)) continue;
    out.push({ value, start, end: start + value.length });
  }
  return out;
}
