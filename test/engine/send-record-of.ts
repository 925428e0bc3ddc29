import { parseStoredDoc } from '../../src/engine/stored-doc.js';
import { sendRecordId } from '../../src/engine/send-adapter.js';
import type { Store } from '../../src/store/store.js';

/** The send record id of effect `seq` in the current run (epoch) of a stored conversation. */
export async function sendRecordOf(
  store: Store,
  conversationId: string,
  seq: number,
): Promise<string> {
  const stored = await store.getConversation(conversationId);
  const parsed = parseStoredDoc(stored?.value);
  if (parsed.status !== 'valid') throw new Error(`no readable document for ${conversationId}`);
  return sendRecordId(conversationId, parsed.doc.epoch, seq);
}
