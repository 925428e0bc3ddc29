import type { InboundMessage, VarValue, Vars } from './contract.js';
import { MEDIA_KINDS, type ValidationDef } from './flow-schema.js';
import { normalizeText } from './text-match.js';

/** Outcome of checking an answer to an `ask`. */
export type AnswerResult =
  { readonly status: 'valid'; readonly value: VarValue } | { readonly status: 'invalid' };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const E164 = /^\+[1-9]\d{7,14}$/;

/**
 * Checks a typed answer. Values are stored trimmed; `number` stores a number, `phone`
 * stores the number without spaces, dashes, dots or parentheses, `oneOf` stores the
 * declared value that matched (case- and accent-insensitive).
 */
export function validateAnswer(text: string, rule: ValidationDef | undefined): AnswerResult {
  const answer = text.trim();
  if (answer === '') return { status: 'invalid' };
  if (rule === undefined) return { status: 'valid', value: answer };
  switch (rule.kind) {
    case 'time': {
      const m = /^([01]?\d|2[0-3])[:.h]([0-5]\d)$/.exec(answer);
      return m === null
        ? { status: 'invalid' }
        : { status: 'valid', value: `${(m[1] ?? '').padStart(2, '0')}:${m[2] ?? ''}` };
    }
    case 'image':
    case 'document':
    case 'audio':
    case 'video':
    case 'media':
    case 'location':
    case 'contact':
      // Not text: see captureAnswer.
      return { status: 'invalid' };
    case 'pattern': {
      let re: RegExp;
      try {
        re = new RegExp(rule.pattern, rule.flags?.replace(/[gy]/g, ''));
      } catch {
        // The linter reports bad patterns; at run time a bad pattern accepts nothing.
        return { status: 'invalid' };
      }
      return re.test(answer) ? { status: 'valid', value: answer } : { status: 'invalid' };
    }
    case 'number': {
      const n = Number(answer.replace(',', '.'));
      if (!/^[-+]?\d+([.,]\d+)?$/.test(answer) || !Number.isFinite(n)) return { status: 'invalid' };
      if (rule.integer === true && !Number.isInteger(n)) return { status: 'invalid' };
      if (rule.min !== undefined && n < rule.min) return { status: 'invalid' };
      if (rule.max !== undefined && n > rule.max) return { status: 'invalid' };
      return { status: 'valid', value: n };
    }
    case 'email':
      return EMAIL.test(answer) ? { status: 'valid', value: answer } : { status: 'invalid' };
    case 'phone': {
      const phone = answer.replace(/[\s\-.()]/g, '');
      return E164.test(phone) ? { status: 'valid', value: phone } : { status: 'invalid' };
    }
    case 'date':
      return isCalendarDate(answer) ? { status: 'valid', value: answer } : { status: 'invalid' };
    case 'oneOf': {
      const hit = rule.values.find((v) => normalizeText(v) === normalizeText(answer));
      return hit === undefined ? { status: 'invalid' } : { status: 'valid', value: hit };
    }
  }
}

function isCalendarDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Outcome of {@link captureAnswer}: the variables an answer sets. */
export type CaptureResult =
  { readonly status: 'valid'; readonly vars: Vars } | { readonly status: 'invalid' };

/** True when an `ask` of this rule takes a non-text answer (media, location, contact). */
export function isNonTextKind(rule: ValidationDef | undefined): boolean {
  return (
    rule !== undefined &&
    (rule.kind === 'location' ||
      rule.kind === 'contact' ||
      (MEDIA_KINDS as readonly string[]).includes(rule.kind))
  );
}

/** Variable names an `ask` sets besides `var` itself, for its rule. */
export function capturedSuffixes(rule: ValidationDef | undefined): readonly string[] {
  if (rule === undefined) return [];
  if (rule.kind === 'location') return ['Latitude', 'Longitude', 'Name', 'Address'];
  if (rule.kind === 'contact') return ['Phone'];
  if ((MEDIA_KINDS as readonly string[]).includes(rule.kind))
    return ['MimeType', 'Caption', 'Availability'];
  return [];
}

/**
 * Checks an inbound message as the answer to an `ask` storing into `target`: typed text
 * for text rules; for media, location and contact rules the message of that kind. A
 * media answer keeps its id (null while not ready), mime type, caption and availability.
 */
export function captureAnswer(
  msg: InboundMessage,
  rule: ValidationDef | undefined,
  target: string,
): CaptureResult {
  if (!isNonTextKind(rule)) {
    if (msg.type !== 'text' || msg.text === undefined) return { status: 'invalid' };
    const r = validateAnswer(msg.text, rule);
    return r.status === 'valid' ? { status: 'valid', vars: { [target]: r.value } } : r;
  }
  const kind = rule?.kind;
  if (kind === 'location') {
    const loc = msg.location;
    if (msg.type !== 'location' || loc === undefined) return { status: 'invalid' };
    return {
      status: 'valid',
      vars: {
        [target]: `${loc.latitude},${loc.longitude}`,
        [`${target}Latitude`]: loc.latitude,
        [`${target}Longitude`]: loc.longitude,
        [`${target}Name`]: loc.name ?? null,
        [`${target}Address`]: loc.address ?? null,
      },
    };
  }
  if (kind === 'contact') {
    const card = msg.contacts?.[0];
    if (msg.type !== 'contacts' || card === undefined) return { status: 'invalid' };
    return {
      status: 'valid',
      vars: { [target]: card.name ?? null, [`${target}Phone`]: card.phones?.[0] ?? null },
    };
  }
  const mediaTypes = ['image', 'document', 'audio', 'video'];
  if (!mediaTypes.includes(msg.type) || (kind !== 'media' && msg.type !== kind))
    return { status: 'invalid' };
  const media = msg.media;
  return {
    status: 'valid',
    vars: {
      [target]: media?.id ?? null,
      [`${target}MimeType`]: media?.mimeType ?? null,
      [`${target}Caption`]: media?.caption ?? msg.text ?? null,
      [`${target}Availability`]: media?.availability ?? 'unavailable',
    },
  };
}
