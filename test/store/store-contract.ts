import { afterEach, beforeEach, describe } from 'vitest';
import { conversationContract } from './store-contract-conversations.js';
import type { ContractContext, StoreFixture } from './store-contract-context.js';
import { firstWriterContract } from './store-contract-first-writer.js';
import { inboxContract } from './store-contract-inbox.js';
import { listingContract } from './store-contract-listing.js';
import { contactMemoryContract } from './store-contract-memory.js';
import { recordContract } from './store-contract-records.js';
import { retentionContract } from './store-contract-retention.js';
import { timerContract } from './store-contract-timers.js';

export type { StoreFixture } from './store-contract-context.js';

/**
 * The behaviour every {@link Store} must have, as vitest suites: conversations (CAS,
 * fencing), inbox (dedup, order, ack, listing), markSeen, values, timers, send records and
 * leases, with concurrency cases. Each test gets a fresh store from `makeStore`; time is
 * driven by the fixture's ManualClock.
 * @example
 * storeContractSuite('MemoryStore', () => {
 *   const clock = new ManualClock();
 *   const store = new MemoryStore({ clock });
 *   return Promise.resolve({ store, clock, cleanup: () => store.close() });
 * });
 */
export function storeContractSuite(name: string, makeStore: () => Promise<StoreFixture>): void {
  describe(`${name} (store contract)`, () => {
    let fixture: StoreFixture | undefined;
    beforeEach(async () => {
      fixture = await makeStore();
    });
    afterEach(async () => {
      await fixture?.cleanup();
      fixture = undefined;
    });
    const current = (): StoreFixture => {
      if (fixture === undefined) throw new Error('The store contract is used outside a test');
      return fixture;
    };
    const ctx: ContractContext = { store: () => current().store, clock: () => current().clock };
    conversationContract(ctx);
    inboxContract(ctx);
    timerContract(ctx);
    recordContract(ctx);
    firstWriterContract(ctx);
    retentionContract(ctx);
    contactMemoryContract(ctx);
    listingContract(ctx);
  });
}
