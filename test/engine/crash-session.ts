import type { IngestEvent } from '../../src/engine/types.js';
import { fromApiMessage } from '../../src/ingest/normalize.js';
import { faultyStore, type Fault, type FaultyStore } from './faulty-store.js';
import { ADA, type Harness } from './harness.js';

/** A harness whose bot runs on a store that fails once at `fault`, as a crash would. */
export interface CrashSession {
  readonly faulty: FaultyStore;
  /**
   * After a fault the bot is "killed" (stopped, its memory gone) and a new one starts on
   * the same data; the API redelivers `redeliver` (callbacks retry). Then the bot's tick
   * runs a few times (due timers, reconciliation at once, +5 s and +30 s, inbox sweeps).
   */
  readonly recover: (redeliver?: IngestEvent) => Promise<void>;
  /** Ada writes `text`; a store error answers the callback 503, so it is redelivered. */
  readonly say: (text: string) => Promise<void>;
}

/** Puts `h`'s bot on a {@link faultyStore} over its store that fails at `fault`. */
export async function crashSession(h: Harness, fault: Fault | undefined): Promise<CrashSession> {
  const data = h.store;
  const faulty = faultyStore(data, fault);
  await h.restart({ store: faulty.store });
  let restarted = false;
  const recover = async (redeliver?: IngestEvent): Promise<void> => {
    for (let round = 0; round < 2; round++) {
      await h.bot.idle();
      if (faulty.tripped && !restarted) {
        restarted = true;
        await h.restart({ store: data });
        if (redeliver !== undefined) await h.bot.handle(redeliver);
        await h.bot.idle();
      }
      for (const ms of [0, 5_000, 30_000]) {
        h.clock.advance(ms);
        await h.bot.start().catch(() => undefined);
        await h.bot.idle();
      }
    }
  };
  const say = async (text: string): Promise<void> => {
    const message = h.sandbox.control.injectInbound({ type: 'text', text, from: ADA });
    const conversation = h.sandbox.control
      .conversations()
      .find((c) => c.id === message.conversationId);
    const event = conversation === undefined ? undefined : fromApiMessage(message, conversation);
    if (event === undefined) throw new Error('no event');
    await h.bot.handle(event).catch(() => undefined);
    await recover(event);
  };
  return { faulty, recover, say };
}
