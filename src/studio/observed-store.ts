import { parseStoredDoc } from '../engine/stored-doc.js';
import type { CasResult, Store } from '../store/store.js';

/** What a conversation document says after a write: the machine's state and the rest. */
export interface DocWrite {
  readonly conversationId: string;
  readonly flowId: string;
  readonly flowVersion: number;
  readonly state: string;
  readonly vars: Readonly<Record<string, unknown>>;
  readonly ended: boolean;
  readonly humanOwned: boolean;
  readonly phone: string;
}

/**
 * Wraps a store so that every successful conversation write (`putConversation`, or
 * `putConversationWith`) is reported (the studio's view of state changes: exact, in
 * order, and without touching the engine). Every other method is the store's own.
 */
export function observeStore(store: Store, onWrite: (write: DocWrite) => void): Store {
  return new Proxy(store, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property !== 'putConversation' && property !== 'putConversationWith')
        return value.bind(target) as unknown;
      const write = value as (...args: unknown[]) => Promise<CasResult>;
      return async (conversationId: string, stored: unknown, ...rest: unknown[]) => {
        const result = await write.call(target, conversationId, stored, ...rest);
        const parsed = result.status === 'ok' ? parseStoredDoc(stored) : undefined;
        if (parsed?.status === 'valid') {
          const { doc } = parsed;
          onWrite({
            conversationId,
            flowId: doc.flowId,
            flowVersion: doc.flowVersion,
            state: doc.state,
            vars: doc.vars,
            ended: doc.ended,
            humanOwned: doc.humanOwned,
            phone: doc.contact.phone,
          });
        }
        return result;
      };
    },
  });
}
