import type { ManualClock } from '../../src/core/clock.js';
import type { Store } from '../../src/store/store.js';

/** What a contract run needs: a fresh, empty store driven by `clock`. */
export interface StoreFixture {
  readonly store: Store;
  readonly clock: ManualClock;
  cleanup(): Promise<void>;
}

/** Access to the current test's fixture from the contract parts (set in beforeEach). */
export interface ContractContext {
  store(): Store;
  clock(): ManualClock;
}
