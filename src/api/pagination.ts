import { z } from 'zod';
import { LIMITS } from '../core/limits.js';
import { CursorMismatchError, ListLimitError } from './client-errors.js';
import { ApiResponseError } from './errors.js';

/**
 * Opaque list cursors (spec 4.2 pagination rules): kept byte-exact, bound to the list that
 * returned them, never built from an id, never mixed with search/page/offset.
 */

const ISSUE = Symbol('PageCursor.issue');

/** The serialized form of a cursor, for storing it between runs. */
export const PageCursorJson = z.strictObject({ list: z.string().min(1), value: z.string() });
export type PageCursorJson = z.infer<typeof PageCursorJson>;

/**
 * A `nextCursor` the API returned, bound to its list. Only the client creates them
 * (or {@link PageCursor.restore} from a stored one); using one on another list throws
 * {@link CursorMismatchError}.
 */
export class PageCursor {
  readonly #list: string;
  readonly #value: string;

  /** @internal Use the client's list methods, or {@link PageCursor.restore}. */
  constructor(token: typeof ISSUE, list: string, value: string) {
    if (token !== ISSUE) throw new TypeError('PageCursor is issued by the client, not built');
    this.#list = list;
    this.#value = value;
  }

  /** The list this cursor belongs to, e.g. `conversations` or `conversations/<id>/messages`. */
  get list(): string {
    return this.#list;
  }

  /** The serialized form; store it and bring it back with {@link PageCursor.restore}. */
  toJSON(): PageCursorJson {
    return { list: this.#list, value: this.#value };
  }

  /** Rebuilds a cursor stored with `toJSON()`; returns undefined when the data is not one. */
  static restore(json: unknown): PageCursor | undefined {
    const parsed = PageCursorJson.safeParse(json);
    return parsed.success ? new PageCursor(ISSUE, parsed.data.list, parsed.data.value) : undefined;
  }

  /** @internal The exact value to send back on `list`; throws when used on another list. */
  valueFor(list: string): string {
    if (list !== this.#list) throw new CursorMismatchError(this.#list, list);
    return this.#value;
  }
}

/** @internal Wraps a cursor string the API returned for `list`. */
export function issueCursor(list: string, value: string): PageCursor {
  return new PageCursor(ISSUE, list, value);
}

/** List id of `GET /v1/conversations`. */
export const CONVERSATIONS_LIST = 'conversations';

/** List id of `GET /v1/conversations/:id/messages`. */
export function historyList(conversationId: string): string {
  return `conversations/${conversationId}/messages`;
}

/** Throws {@link ListLimitError} unless `limit` is undefined or an integer in 1..100. */
export function checkListLimit(limit: number | undefined): void {
  if (limit === undefined) return;
  if (!Number.isInteger(limit) || limit < LIMITS.listLimit.min || limit > LIMITS.listLimit.max) {
    throw new ListLimitError(limit);
  }
}

/**
 * Builds the query string of a list call: only `limit` and the cursor parameter, URL-encoded
 * by URLSearchParams (the server decodes them back byte-exact).
 */
export function listQuery(
  list: string,
  cursorParam: 'after' | 'before',
  options: { limit?: number | undefined; cursor?: PageCursor | undefined },
): string {
  checkListLimit(options.limit);
  const params = new URLSearchParams();
  if (options.limit !== undefined) params.set('limit', String(options.limit));
  if (options.cursor !== undefined) {
    if (!(options.cursor instanceof PageCursor)) {
      throw new TypeError(`${cursorParam} must be a PageCursor returned by a previous page`);
    }
    params.set(cursorParam, options.cursor.valueFor(list));
  }
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}

/**
 * Stops a walk whose server hands back a cursor already used on this list (it would loop
 * forever): throws {@link ApiResponseError} with code `bad_response`.
 */
export function checkProgress(
  seen: Set<string>,
  next: PageCursor | undefined,
  route: string,
): void {
  if (next === undefined) return;
  const value = next.toJSON().value;
  if (seen.has(value)) {
    throw new ApiResponseError({
      status: 200,
      code: 'bad_response',
      message: 'the API returned a cursor already used on this list; stopping to avoid a loop',
      requestTime: new Date().toISOString(),
      route,
    });
  }
  seen.add(value);
}
