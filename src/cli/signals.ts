/**
 * Stop signals for the long-running commands. A command catches SIGINT and SIGTERM before
 * it prints anything a parent waits for (a banner, a `listening` line): a supervisor or a
 * test that signals the moment it reads that line must meet a graceful stop, never the
 * default action that kills the process with no exit code.
 */

/** What a caught signal does, once the command can stop. */
export type SignalHandler = (signal: NodeJS.Signals) => void;

/** Signals caught before the command installed its handler are held for it. */
export interface CaughtSignals {
  /** Installs what a signal does; a signal that came before runs it at once. */
  handle(handler: SignalHandler): void;
}

/**
 * Catches SIGINT and SIGTERM from now on. Every signal goes to the handler (so a handler
 * guards against a second one itself); the first signal that came before `handle` is held.
 * @example
 * const signals = catchSignals();
 * const server = await start();
 * signals.handle(() => void server.close().then(() => process.exit(0)));
 * process.stdout.write('listening\n');
 */
export function catchSignals(): CaughtSignals {
  let handler: SignalHandler | undefined;
  let pending: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (handler === undefined) pending ??= signal;
    else handler(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    handle(next) {
      handler = next;
      if (pending !== undefined) next(pending);
    },
  };
}

/**
 * A handler that runs `stop` once, then exits 0 (or 1 when `stop` fails); later signals
 * are ignored while it stops.
 */
export function stopOnce(stop: () => Promise<void>): SignalHandler {
  let stopping = false;
  return () => {
    if (stopping) return;
    stopping = true;
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
}
