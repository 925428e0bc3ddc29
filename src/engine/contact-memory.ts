import { z } from 'zod';
import type { Vars } from '../flows/contract.js';
import type { Store, ValueWrite } from '../store/store.js';
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

/**
 * Records that `conversationId` is a conversation of `phone`, as its latest: the list
 * serves erasure ({@link forgetContact}) and, by its last entry, `bot.notify`/`bot.start`
 * ({@link latestConversation}). One value per contact (no second index key: 100,000
 * contacts cost a value each, not two).
 */
export async function rememberConversation(
  store: Store,
  phone: string,
  conversationId: string,
  ttlMs: number = CONTACT_MEMORY_TTL_MS,
): Promise<void> {
  const write = await conversationListWrite(store, phone, conversationId, ttlMs);
  if (write !== undefined) await store.setValue(write.key, write.value, write.ttlMs);
}

/**
 * The write that {@link rememberConversation} makes (undefined: the list already ends with
 * `conversationId`), for the engine to make with the conversation's first document write.
 */
export async function conversationListWrite(
  store: Store,
  phone: string,
  conversationId: string,
  ttlMs: number = CONTACT_MEMORY_TTL_MS,
): Promise<ValueWrite | undefined> {
  const ids = await contactConversations(store, phone);
  if (ids.at(-1) === conversationId) return undefined;
  const next = [...ids.filter((id) => id !== conversationId), conversationId].slice(-50);
  return { key: conversationsKey(phone), value: next, ttlMs };
}

/** The conversation a contact was last seen in, if the engine recorded one. */
export async function latestConversation(store: Store, phone: string): Promise<string | undefined> {
  const latest = (await contactConversations(store, phone)).at(-1);
  if (latest !== undefined) return latest;
  // Written by earlier versions (a key of its own).
  const legacy = await store.getValue(legacyContactKey(phone));
  return typeof legacy === 'string' ? legacy : undefined;
}

async function contactConversations(store: Store, phone: string): Promise<string[]> {
  const parsed = ConversationIds.safeParse(await store.getValue(conversationsKey(phone)));
  return parsed.success ? parsed.data : [];
}

/** The phone → latest conversation key of earlier versions (read, and erased, only). */
function legacyContactKey(phone: string): string {
  return `contact-conv:${phone}`;
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
  const ids = new Set(await contactConversations(store, phone));
  const legacy = await store.getValue(legacyContactKey(phone));
  if (typeof legacy === 'string') ids.add(legacy);
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
  await store.deleteValue(legacyContactKey(phone));
  return { phone, memory, conversations: deleted };
}
