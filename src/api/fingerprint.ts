import { createHash } from 'node:crypto';

/**
 * Content fingerprints, to reconcile a send whose outcome is unknown (spec 4.5.6) with
 * what later shows up in the conversation history.
 */

/** JSON with object keys sorted at every depth, so equal content gives equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(',')}]`;
  const entries = Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/**
 * SHA-256 (hex) of the canonical JSON of the request's content object (the field named
 * after `type`, e.g. `request.text` for a text message).
 * @example
 * fingerprintContent({ messaging_product: 'whatsapp', to: '+4915…', type: 'text', text: { body: 'hi' } });
 */
export function fingerprintContent(
  request: Readonly<Record<string, unknown>> & { readonly type: string },
): string {
  const content = request[request.type];
  return createHash('sha256').update(canonicalJson(content), 'utf8').digest('hex');
}
