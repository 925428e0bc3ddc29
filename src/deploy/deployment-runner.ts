import { createHash } from 'node:crypto';
import type { Limiter } from '../api/limiter.js';
import type { BotLoadResult } from '../bot/resolve-bot.js';
import { parseDuration } from '../core/duration.js';
import type { Logger } from '../log/logger.js';
import type { Store } from '../store/store.js';
import type { Deployment, DeploymentNumber } from './deployment-schema.js';
import { NumberUnit, type NumberStatus } from './number-unit.js';

/** What a deployment needs besides its file. */
export interface DeploymentRunnerOptions {
  readonly baseUrl: string;
  /** Where the numbers' keys and secrets are read (by the names the file gives). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The limiter every number shares (memory in one process, Redis across workers). */
  readonly limiter: Limiter;
  /** Opens a number's own store (a SQLite file, a Redis key prefix, memory). */
  readonly openStore: (id: string) => Store;
  readonly loadBot: (path: string) => Promise<BotLoadResult>;
  /** A logger for one number: `number` in every record, its secrets redacted. */
  readonly loggerFor: (id: string, secrets: readonly string[]) => Logger;
  /** The deployment's own logger (reloads). */
  readonly logger: Logger;
  readonly workerId: string;
  readonly dedupTtlMs: number;
  /** Timings of each {@link NumberUnit} (tests shorten them). */
  readonly unit?: { leaseMs?: number; retryBaseMs?: number; recheckMs?: number };
  /** Called when a number's status changes, or numbers come and go. */
  readonly onChange?: () => void;
}

/** What {@link DeploymentRunner.apply} did, by number id. */
export interface ApplyReport {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly restarted: readonly string[];
  readonly unchanged: readonly string[];
}

/** Thrown by {@link DeploymentRunner.apply} when the new file cannot run: nothing changed. */
export class DeploymentConfigError extends Error {
  override readonly name = 'DeploymentConfigError';
}

interface Running {
  readonly unit: NumberUnit;
  readonly spec: DeploymentNumber;
  readonly fingerprint: string;
  readonly store: Store;
}

/**
 * Runs the numbers of a deployment file, one {@link NumberUnit} each, and applies a new
 * version of the file without touching the numbers it does not change: an added number
 * starts, a removed one drains (its work in flight finishes) and stops, a changed one
 * (bot, key, secret, workspace, options) restarts alone. A new file that cannot run (a
 * variable not set, a bot that does not load) changes nothing.
 * @example
 * const runner = new DeploymentRunner(options);
 * await runner.apply(loaded.deployment);
 */
export class DeploymentRunner {
  readonly #running = new Map<string, Running>();
  #applying: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: DeploymentRunnerOptions) {}

  /** The numbers running now, in file order. */
  numbers(): { readonly id: string; readonly spec: DeploymentNumber; readonly unit: NumberUnit }[] {
    return [...this.#running.values()].map((r) => ({ id: r.spec.id, spec: r.spec, unit: r.unit }));
  }

  /** Each number's status. */
  statuses(): { readonly id: string; readonly status: NumberStatus }[] {
    return this.numbers().map((n) => ({ id: n.id, status: n.unit.status }));
  }

  /** Applies a (new) deployment; serialised with other applies and the stop. */
  apply(deployment: Deployment): Promise<ApplyReport> {
    const next = this.#applying.then(() => this.#apply(deployment));
    this.#applying = next.catch(() => undefined);
    return next;
  }

  /** Drains and stops every number. */
  stop(): Promise<void> {
    const next = this.#applying.then(async () => {
      const all = [...this.#running.keys()];
      await Promise.all(all.map((id) => this.#stopOne(id)));
    });
    this.#applying = next.catch(() => undefined);
    return next;
  }

  async #apply(deployment: Deployment): Promise<ApplyReport> {
    const wanted = new Map(deployment.numbers.map((n) => [n.id, n]));
    const secrets = new Map<string, { apiKey: string; callbackSecret: string | undefined }>();
    const problems: string[] = [];
    for (const n of deployment.numbers) {
      const apiKey = this.options.env[n.apiKeyEnv]?.trim();
      const secret =
        n.callbackSecretEnv === undefined
          ? undefined
          : this.options.env[n.callbackSecretEnv]?.trim();
      if (apiKey === undefined || apiKey === '')
        problems.push(`number ${n.id}: ${n.apiKeyEnv} is not set (its API key)`);
      if (n.callbackSecretEnv !== undefined && (secret === undefined || secret === ''))
        problems.push(`number ${n.id}: ${n.callbackSecretEnv} is not set (its callback secret)`);
      secrets.set(n.id, { apiKey: apiKey ?? '', callbackSecret: secret });
    }
    const fingerprints = new Map(
      deployment.numbers.map((n) => [n.id, fingerprintOf(n, secrets.get(n.id))]),
    );
    const toStart = deployment.numbers.filter(
      (n) => this.#running.get(n.id)?.fingerprint !== fingerprints.get(n.id),
    );
    // Load every new bot before touching anything: a bad one leaves the deployment as it was.
    const bots = new Map<string, Extract<BotLoadResult, { status: 'ok' }>['bot']>();
    if (problems.length === 0) {
      for (const n of toStart) {
        const loaded = await this.options.loadBot(n.bot);
        if (loaded.status === 'error') problems.push(`number ${n.id}: ${loaded.message}`);
        else bots.set(n.id, loaded.bot);
      }
    }
    if (problems.length > 0) throw new DeploymentConfigError(problems.join('; '));
    const removed = [...this.#running.keys()].filter((id) => !wanted.has(id));
    const restarted = toStart.filter((n) => this.#running.has(n.id)).map((n) => n.id);
    await Promise.all([...removed, ...restarted].map((id) => this.#stopOne(id)));
    for (const n of toStart) {
      const bot = bots.get(n.id);
      const s = secrets.get(n.id);
      if (bot === undefined || s === undefined) continue;
      const store = this.options.openStore(n.id);
      const logger = this.options.loggerFor(n.id, [
        s.apiKey,
        ...(s.callbackSecret === undefined ? [] : [s.callbackSecret]),
      ]);
      const unit = new NumberUnit({
        id: n.id,
        workspace: n.workspace,
        resolved: bot,
        baseUrl: this.options.baseUrl,
        apiKey: s.apiKey,
        apiKeyEnv: n.apiKeyEnv,
        callbackSecret: s.callbackSecret,
        store,
        limiter: this.options.limiter,
        logger,
        workerId: this.options.workerId,
        pollMs: n.poll === undefined ? undefined : msOf(n.poll),
        backfillMs: n.backfill === undefined ? 0 : msOf(n.backfill),
        dedupTtlMs: this.options.dedupTtlMs,
        ...this.options.unit,
        onStatus: () => this.options.onChange?.(),
      });
      this.#running.set(n.id, {
        unit,
        spec: n,
        fingerprint: fingerprints.get(n.id) ?? '',
        store,
      });
      await unit.start();
      logger.info('number started', {
        bot: n.bot,
        workspace: n.workspace,
      });
    }
    // Keep file order (a restarted number moved to the end of the map).
    const order = [...this.#running.entries()].sort(
      ([a], [b]) =>
        deployment.numbers.findIndex((n) => n.id === a) -
        deployment.numbers.findIndex((n) => n.id === b),
    );
    this.#running.clear();
    for (const [id, r] of order) this.#running.set(id, r);
    this.options.onChange?.();
    const added = toStart.filter((n) => !restarted.includes(n.id)).map((n) => n.id);
    const report = {
      added,
      removed,
      restarted,
      unchanged: deployment.numbers
        .map((n) => n.id)
        .filter((id) => !added.includes(id) && !restarted.includes(id)),
    };
    this.options.logger.info('deployment applied', { ...report });
    return report;
  }

  async #stopOne(id: string): Promise<void> {
    const running = this.#running.get(id);
    if (running === undefined) return;
    this.#running.delete(id);
    this.options.onChange?.();
    await running.unit.stop();
    await running.store.close();
  }
}

/** What makes a number restart when it changes: its spec and its secrets (hashed). */
function fingerprintOf(
  n: DeploymentNumber,
  s: { apiKey: string; callbackSecret: string | undefined } | undefined,
): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(n));
  hash.update(`\0${s?.apiKey ?? ''}\0${s?.callbackSecret ?? ''}`);
  return hash.digest('hex');
}

function msOf(duration: string): number {
  const d = parseDuration(duration);
  // The schema checked it.
  return d.status === 'valid' ? d.ms : 0;
}
