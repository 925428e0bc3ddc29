import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/** What a cursor points at: the last item of the page it came from, on one list. */
const CursorPayload = z.strictObject({
  /** List kind and scope: `conversations:<numberId>` or `history:<conversationId>`. */
  list: z.string(),
  /** Sort key of the last returned item (timestamp, seq). */
  at: z.number(),
  seq: z.number().int(),
});
export type CursorPayload = z.infer<typeof CursorPayload>;

/** Outcome of {@link CursorCodec.decode}. */
export type CursorResult =
  { readonly status: 'valid'; readonly position: CursorPayload } | { readonly status: 'invalid' };

/**
 * Opaque pagination cursors (spec 4.2 rules 1–2): base64url of a JSON position plus an
 * HMAC with a per-sandbox random secret, so they cannot be built from ids, tampered
 * with, or reused on another list (the list name is inside the MAC).
 */
export class CursorCodec {
  readonly #secret = randomBytes(32);

  encode(position: CursorPayload): string {
    const body = Buffer.from(JSON.stringify(position)).toString('base64url');
    return `${body}.${this.#mac(body)}`;
  }

  decode(cursor: string, list: string): CursorResult {
    const [body, mac, extra] = cursor.split('.');
    if (body === undefined || mac === undefined || extra !== undefined)
      return { status: 'invalid' };
    const expected = Buffer.from(this.#mac(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return { status: 'invalid' };
    let json: unknown;
    try {
      json = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      // A valid MAC over unparsable JSON cannot happen; treat it as invalid anyway.
      return { status: 'invalid' };
    }
    const parsed = CursorPayload.safeParse(json);
    if (!parsed.success || parsed.data.list !== list) return { status: 'invalid' };
    return { status: 'valid', position: parsed.data };
  }

  #mac(body: string): string {
    return createHmac('sha256', this.#secret).update(body).digest('base64url').slice(0, 32);
  }
}
