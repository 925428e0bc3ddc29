import { LIMITS } from '../core/limits.js';
import type { CursorCodec, CursorPayload } from './cursors.js';
import { problem, type Problem } from './problem.js';

/** A parsed list request. */
export type ListQuery =
  | { readonly status: 'ok'; readonly limit: number; readonly position: CursorPayload | undefined }
  | { readonly status: 'error'; readonly problem: Problem };

/**
 * Parses the query of a list endpoint (spec 4.1, 4.2). `limit` must be an integer
 * 1..100 (default 50). The only other accepted parameter is the list's cursor
 * (`after` or `before`); every other parameter, including search/page/offset and the
 * other list's cursor name, is 400 invalid_pagination. A cursor that this sandbox did
 * not return for this very list is 400 invalid_cursor.
 */
export function parseListQuery(
  query: Record<string, unknown>,
  cursorParam: 'after' | 'before',
  list: string,
  codec: CursorCodec,
): ListQuery {
  const fail = (p: Problem): ListQuery => ({ status: 'error', problem: p });
  for (const name of Object.keys(query)) {
    if (name !== 'limit' && name !== cursorParam) {
      return fail(
        problem(
          'invalid_pagination',
          `Unsupported list parameter "${name}"; use only limit and ${cursorParam}.`,
          {
            parameter: name,
          },
        ),
      );
    }
  }
  let limit: number = LIMITS.listLimit.default;
  const rawLimit = query['limit'];
  if (rawLimit !== undefined) {
    if (typeof rawLimit !== 'string' || !/^\d{1,4}$/.test(rawLimit)) {
      return fail(badLimit(rawLimit));
    }
    limit = Number(rawLimit);
    if (limit < LIMITS.listLimit.min || limit > LIMITS.listLimit.max)
      return fail(badLimit(rawLimit));
  }
  const rawCursor = query[cursorParam];
  if (rawCursor === undefined) return { status: 'ok', limit, position: undefined };
  if (typeof rawCursor !== 'string' || rawCursor === '') {
    return fail(
      problem(
        'invalid_cursor',
        `The ${cursorParam} cursor must be a nextCursor returned by this list.`,
      ),
    );
  }
  const decoded = codec.decode(rawCursor, list);
  if (decoded.status === 'invalid') {
    return fail(
      problem(
        'invalid_cursor',
        `The ${cursorParam} cursor was not returned by this list; pass nextCursor unchanged.`,
      ),
    );
  }
  return { status: 'ok', limit, position: decoded.position };
}

function badLimit(raw: unknown): Problem {
  return problem(
    'invalid_pagination',
    `limit must be an integer from ${LIMITS.listLimit.min} to ${LIMITS.listLimit.max} (got ${JSON.stringify(raw)}).`,
    { parameter: 'limit', min: LIMITS.listLimit.min, max: LIMITS.listLimit.max },
  );
}

/**
 * Cuts one page out of a list sorted newest first, after the cursor position, and the
 * cursor of the next page (null when nothing is left).
 */
export function pageAfter<T>(
  items: readonly T[],
  key: (item: T) => { at: number; seq: number },
  position: CursorPayload | undefined,
  limit: number,
  list: string,
  codec: CursorCodec,
): { items: T[]; nextCursor: string | null } {
  const rest =
    position === undefined
      ? items
      : items.filter((item) => {
          const k = key(item);
          return k.at < position.at || (k.at === position.at && k.seq < position.seq);
        });
  const page = rest.slice(0, limit);
  const last = page.at(-1);
  const nextCursor =
    rest.length > limit && last !== undefined ? codec.encode({ list, ...key(last) }) : null;
  return { items: page, nextCursor };
}
