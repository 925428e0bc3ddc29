import { BUDGETS, LIMITS } from '../core/limits.js';

/**
 * Errors the client raises itself, before anything goes on the wire: the call was
 * wrong or cannot be made now. Each carries a stable `code` for {@link isErrorCode}.
 */

/** `limit` outside 1..100 (spec 4.1, 4.2). Code `invalid_list_limit`. */
export class ListLimitError extends RangeError {
  readonly code = 'invalid_list_limit';
  readonly limit: number;
  constructor(limit: number) {
    super(
      `list limit ${limit} is not allowed; use an integer from ${LIMITS.listLimit.min} to ` +
        `${LIMITS.listLimit.max} (spec 4.1, 4.2), or leave it out for ${LIMITS.listLimit.default}`,
    );
    this.name = 'ListLimitError';
    this.limit = limit;
  }
}

/** A cursor used on a list it did not come from (spec 4.2 rule 2). Code `cursor_mismatch`. */
export class CursorMismatchError extends Error {
  readonly code = 'cursor_mismatch';
  constructor(
    readonly cursorList: string,
    readonly requestedList: string,
  ) {
    super(
      `a cursor from the list "${cursorList}" cannot be used on "${requestedList}"; cursors ` +
        'are bound to the list that returned them (spec 4.2 rule 2)',
    );
    this.name = 'CursorMismatchError';
  }
}

/** Why a message's media cannot be downloaded now. */
export type MediaNotReadyReason =
  'no_media' | 'not_ready' | 'no_download_path' | 'bad_download_path';

/**
 * The message's media is not `ready` or has no usable `downloadPath` (spec 2.4): wait
 * for it or handle the unavailable state; the client never guesses a URL.
 * Code `media_not_ready`.
 */
export class MediaNotReadyError extends Error {
  readonly code = 'media_not_ready';
  constructor(
    readonly messageId: string,
    readonly reason: MediaNotReadyReason,
    readonly availability: string | undefined,
  ) {
    super(
      `media of message ${messageId} cannot be downloaded: ${reason}` +
        (availability === undefined ? '' : ` (availability ${availability})`) +
        '; wait until it is ready, the client does not guess download URLs (spec 2.4)',
    );
    this.name = 'MediaNotReadyError';
  }
}

/**
 * All media stream slots of this key and number are held (spec part 8), checked
 * locally before calling. Release a stream and try again. Code `media_concurrency_exceeded`.
 */
export class MediaSlotError extends Error {
  readonly code = 'media_concurrency_exceeded';
  constructor(readonly slotKey: string) {
    super(
      `all ${BUDGETS.mediaStreams} media stream slots are in use (spec part 8); ` +
        'release an open download first',
    );
    this.name = 'MediaSlotError';
  }
}
