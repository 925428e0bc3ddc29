import { z } from 'zod';
import type { Vars } from '../flows/contract.js';
import type { Store } from '../store/store.js';
import { contactKey } from './external-events.js';
import { VarsSchema } from './schemas.js';

/**
 * Contact memory: the `contact.<name>` values of flows, kept per contact (phone) across
 * conversations, flows and restarts, in the same store as everything else (a value
 * record with a retention, in every store). Erasure: {@link forgetContact}.
 */

/** How long a contact's memory is kept after its last change (default 400 days). */
export const CONTACT_MEMORY_TTL_MS = 400 * 86_400_000;

/** Store key of a contact's memory. */
export function memoryKey(phone: string): string {
  return `contact-memory:${phone}`;
}

/** Store key of the epoch an erased conversation had (a new one starts above it). */
export function epochFloorKey(conversationId: string): string {
  return `conv-epoch:${conversationId}`;
}

/** Longer than the retention of send records (7 days by default). */
const EPOCH_FLOOR_TTL_MS = 30 * 86_400_000;

/** Store key of the conversations a contact was seen in (for erasure). */
export function conversationsKey(phone: string): string {
  return `contact-convs:${phone}`;
}

const ConversationIds = z.array(z.string());

/** Reads a contact's memory (empty when none, or when the stored value is not valid). */
export async function loadContactMemory(store: Store, phone: string): Promise<Vars> {
  const parsed = VarsSchema.safeParse(await store.getValue(memoryKey(phone)));
  return parsed.success ? parsed.data : {};
}

/** Writes a contact's memory (all of it). */
export async function saveContactMemory(
  store: Store,
  phone: string,
  values: Vars,
  ttlMs: number = CONTACT_MEMORY_TTL_MS,
): Promise<void> {
  await store.setValue(memoryKey(phone), values, ttlMs);
}

/** Records that `conversationId` is a conversation of `phone` (for {@link forgetContact}). */
export async function rememberConversation(
  store: Store,
  phone: string,
  conversationId: string,
  ttlMs: number = CONTACT_MEMORY_TTL_MS,
): Promise<void> {
  const key = conversationsKey(phone);
  const parsed = ConversationIds.safeParse(await store.getValue(key));
  const ids = parsed.success ? parsed.data : [];
  if (ids.includes(conversationId)) return;
  await store.setValue(key, [...ids, conversationId].slice(-50), ttlMs);
}

/** What {@link forgetContact} removed. */
export interface ForgetResult {
  readonly phone: string;
  /** Whether contact memory existed. */
  readonly memory: boolean;
  /** Conversation documents deleted (with their inbox). */
  readonly conversations: readonly string[];
}

/**
 * Erasure of a contact (a "forget me" request): deletes its contact memory, every
 * conversation document the engine recorded for it (state, variables, the sub-flow
 * stack) with the events waiting in their inboxes, and the phone → conversation index.
 * Timers left for those conversations fire into nothing. Send records (ids, content
 * fingerprints, no text) expire with their retention (7 days by default).
 * @example
 * await forgetContact(store, '+15551230001'); // or: switchboard forget +15551230001
 */
export async function forgetContact(store: Store, phone: string): Promise<ForgetResult> {
  const memory = (await store.getValue(memoryKey(phone))) !== undefined;
  const parsed = ConversationIds.safeParse(await store.getValue(conversationsKey(phone)));
  const ids = new Set(parsed.success ? parsed.data : []);
  const last = await store.getValue(contactKey(phone));
  if (typeof last === 'string') ids.add(last);
  ids.add(`contact:${phone}`);
  const deleted: string[] = [];
  for (const id of ids) {
    const stored = await store.getConversation(id);
    const existed = stored !== undefined;
    // Send records of the erased conversation outlive it (ids, no text): a new
    // conversation there must not reuse their ids, so it starts after this epoch.
    const epoch: unknown = Reflect.get(Object(stored?.value), 'epoch');
    if (typeof epoch === 'number')
      await store.setValue(epochFloorKey(id), epoch, EPOCH_FLOOR_TTL_MS);
    await store.deleteConversation(id);
    for (;;) {
      const items = await store.peekInbox(id, 100);
      if (items.length === 0) break;
      await store.ackInbox(
        id,
        items.map((i) => i.id),
      );
    }
    if (existed) deleted.push(id);
  }
  await store.deleteValue(memoryKey(phone));
  await store.deleteValue(conversationsKey(phone));
  await store.deleteValue(contactKey(phone));
  return { phone, memory, conversations: deleted };
}
