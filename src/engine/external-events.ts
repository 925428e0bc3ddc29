import { randomUUID } from 'node:crypto';
import type { Vars } from '../flows/contract.js';
import type { ExternalEventPayload } from './external-event.js';
import type { EngineDeps } from './engine-deps.js';
import { latestConversation, rememberConversation } from './contact-memory.js';

/** Who an event is for: an E.164 phone, or a contact with its conversation when known. */
export type EventTarget =
  | string
  | {
      readonly phone: string;
      /** The API's conversation id, when the caller knows it (skips the lookup). */
      readonly conversationId?: string;
      readonly name?: string;
    };

/** Options of `bot.notify` and `bot.start`. */
export interface ExternalEventOptions {
  /**
   * The caller's id of this event: the same id is applied once, however often it is
   * sent (default: a random id, i.e. no protection against the caller's retries).
   */
  readonly id?: string;
}

/** What became of an event: enqueued for its conversation, or a duplicate of an earlier one. */
export interface ExternalEventResult {
  readonly status: 'accepted' | 'duplicate';
  readonly eventId: string;
  readonly conversationId: string;
}

/** Pages of `GET /v1/conversations` read to find a contact's conversation. */
const LOOKUP_PAGES = 10;

/**
 * Enqueues an external event for a contact's conversation. The conversation is the one
 * given, else the one this event id was given before, else the one the engine saw the
 * contact in, else the API's (a bounded walk of the conversation list), else a new one
 * named `contact:<phone>` (the contact never wrote: the flow can still send templates).
 * Dedup: the inbox item id is `event:<id>`, so an event sent twice is applied once.
 */
export async function enqueueExternal(
  deps: EngineDeps,
  target: EventTarget,
  event: ExternalEventPayload['event'],
  options: ExternalEventOptions = {},
): Promise<ExternalEventResult> {
  const eventId = options.id ?? randomUUID();
  const wanted = typeof target === 'string' ? { phone: target } : target;
  const remembered = `event-conv:${eventId}`;
  const earlier = await deps.store.getValue(remembered);
  let conversationId = typeof earlier === 'string' ? earlier : wanted.conversationId;
  let contact = { phone: wanted.phone, id: '', name: wanted.name ?? '' };
  conversationId ??= await latestConversation(deps.store, wanted.phone);
  if (conversationId === undefined) {
    const found = await findConversation(deps, wanted.phone);
    if (found !== undefined) {
      conversationId = found.id;
      contact = {
        phone: wanted.phone,
        id: found.contactId,
        name: wanted.name ?? found.contactName,
      };
      await rememberConversation(deps.store, wanted.phone, found.id);
    }
  }
  conversationId ??= `contact:${wanted.phone}`;
  await deps.store.setValue(remembered, conversationId, deps.dedupTtlMs);
  const fresh = await deps.enqueue(
    conversationId,
    {
      id: `event:${eventId}`,
      sortKey: deps.clock.now(),
      payload: { kind: 'event', contact, event } satisfies ExternalEventPayload,
    },
    'event',
  );
  return { status: fresh ? 'accepted' : 'duplicate', eventId, conversationId };
}

async function findConversation(
  deps: EngineDeps,
  phone: string,
): Promise<{ id: string; contactId: string; contactName: string } | undefined> {
  let after: Parameters<EngineDeps['client']['listConversations']>[0];
  for (let page = 0; page < LOOKUP_PAGES; page++) {
    const result = await deps.client.listConversations({ limit: 100, ...after });
    const hit = result.items.find((c) => c.phoneNumber === phone);
    if (hit !== undefined) return hit;
    if (result.nextCursor === null) return undefined;
    after = { after: result.nextCursor };
  }
  return undefined;
}

/** The payload event of `bot.notify`. */
export function notifyEvent(name: string, data: Vars = {}): ExternalEventPayload['event'] {
  return { type: 'notify', name, data };
}
