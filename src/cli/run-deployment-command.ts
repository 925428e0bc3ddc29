import { StateFileLockedError } from '../store/sqlite-schema.js';
import { parseDeploymentConfig } from './deployment-config.js';
import { CliError, gracefulStop } from './run-command.js';
import type { RunFlags } from './run-config.js';
import { startDeployment, type RunningDeployment } from './run-deployment.js';
import { WorkerStartError } from './run-worker.js';
import { catchSignals } from './signals.js';

/**
 * `switchboard run --deployment <file>` (or `switchboard run <name>.deploy.yaml`): starts
 * every number of the file, reloads it on SIGHUP (and when the file changes), stops
 * gracefully on SIGINT/SIGTERM. A bad file or setting prints its problems and exits 2.
 */
export async function runDeploymentCommand(file: string, flags: RunFlags): Promise<void> {
  const parsed = parseDeploymentConfig(flags, process.env);
  if (parsed.status === 'invalid') throw new CliError(`switchboard run: ${parsed.message}`, 2);
  const signals = catchSignals();
  let running: RunningDeployment;
  try {
    running = await startDeployment(file, parsed.config);
  } catch (error) {
    if (error instanceof WorkerStartError || error instanceof StateFileLockedError)
      throw new CliError(`switchboard run: ${error.message}`, 2, { cause: error });
    throw error;
  }
  const onHangUp = (): void => {
    running.logger.info('SIGHUP: reloading the deployment file');
    void running.reload();
  };
  process.on('SIGHUP', onHangUp);
  const keepAlive = setInterval(() => undefined, 1 << 30);
  signals.handle(
    gracefulStop(async () => {
      clearInterval(keepAlive);
      process.off('SIGHUP', onHangUp);
      await running.stop();
    }, running.logger),
  );
}
