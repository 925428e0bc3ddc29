import { BUDGETS } from '../core/limits.js';
import { mediaSlotKeys, type BudgetIdentity } from './budgets.js';
import type { BudgetRule } from './limiter.js';
import { MediaSlotError } from './client-errors.js';
import { ApiResponseError } from './errors.js';
import type { Limiter, Slot } from './limiter.js';
import { mediaDownload, type MediaDownload } from './media-download.js';
import type { Transport } from './transport.js';

const MEDIA_ROUTE = 'GET /v1/media/:mediaId';

/** @internal Input of {@link readMedia}. */
export interface ReadMediaInput {
  readonly transport: Transport;
  readonly limiter: Limiter;
  readonly identity: BudgetIdentity;
  /** The read budget rules of the client (with its margin). */
  readonly readRules: readonly BudgetRule[];
  /** `/v1/media/<id>`, already encoded. */
  readonly path: string;
  readonly slotTtlMs: number;
}

/**
 * @internal Takes a media slot per key and per number (8 each, spec part 8), then streams
 * the attachment with the read budget and read retries. The slots stay held until the
 * stream is done; on any failure they are released before the error is thrown.
 */
export async function readMedia(input: ReadMediaInput): Promise<MediaDownload> {
  const slots = await acquireMediaSlots(input);
  try {
    const outcome = await input.transport.read(MEDIA_ROUTE, input.path, input.readRules, 'stream');
    if (outcome.stream === undefined) {
      throw new ApiResponseError({
        status: outcome.httpStatus,
        code: 'bad_response',
        message: 'media response without a body',
        requestId: outcome.requestId,
        requestTime: outcome.requestTime,
        route: MEDIA_ROUTE,
      });
    }
    return mediaDownload(outcome.stream, outcome.headers, slots);
  } catch (err) {
    await Promise.all(slots.map((s) => s.release()));
    throw err;
  }
}

/** All slots or none: a refused second slot gives the first one back. */
async function acquireMediaSlots(input: ReadMediaInput): Promise<Slot[]> {
  const held: Slot[] = [];
  for (const key of mediaSlotKeys(input.identity)) {
    const slot = await input.limiter.acquireSlot(key, BUDGETS.mediaStreams, input.slotTtlMs);
    if (slot === undefined) {
      await Promise.all(held.map((s) => s.release()));
      throw new MediaSlotError(key);
    }
    held.push(slot);
  }
  return held;
}
