import type { Logger } from '../log/logger.js';
import type { CallbackDispatcher } from './callback-dispatcher.js';
import type { SandboxConfig } from './config.js';
import type { CursorCodec } from './cursors.js';
import type { FaultInjector } from './faults.js';
import type { MediaStreams } from './media-streams.js';
import type { RateCounter } from './rate.js';
import type { SandboxClock } from './sandbox-clock.js';
import type { SandboxState } from './state.js';

/** Everything the sandbox's routes share. */
export interface SandboxContext {
  /** The effective configuration; control operations change it in place. */
  readonly config: SandboxConfig;
  readonly state: SandboxState;
  readonly clock: SandboxClock;
  readonly logger: Logger;
  readonly cursors: CursorCodec;
  readonly rate: RateCounter;
  readonly faults: FaultInjector;
  readonly callbacks: CallbackDispatcher;
  readonly mediaStreams: MediaStreams;
  /** Applies every due status and media change. */
  runDue(): number;
}
