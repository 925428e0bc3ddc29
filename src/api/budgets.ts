import { createHash } from 'node:crypto';
import { BUDGETS } from '../core/limits.js';
import type { BudgetRule } from './limiter.js';

/**
 * Budget rules of spec part 8, built once here and shared by the API client, the Redis
 * limiter and the sandbox, so every party counts the same keys.
 */

/** The names budgets are counted under. None of them is the API key itself. */
export interface BudgetIdentity {
  /** Identifies the API key (default: `k_` + a SHA-256 prefix of the key). */
  readonly keyId: string;
  /** The business number the key is bound to (default: derived from keyId). */
  readonly numberId: string;
  /** The workspace sharing the 1,200/min send budget (default `default`). */
  readonly workspaceId: string;
}

/** Derives a stable, non-reversible id for an API key: `k_` + 16 hex chars of SHA-256. */
export function keyIdOf(apiKey: string): string {
  return `k_${createHash('sha256').update(apiKey, 'utf8').digest('hex').slice(0, 16)}`;
}

/**
 * Completes a partial identity. A key is bound to exactly one number (spec 5), so without
 * a number id the key id stands for its number.
 */
export function resolveIdentity(
  apiKey: string,
  partial: { keyId?: string; numberId?: string; workspaceId?: string } = {},
): BudgetIdentity {
  const keyId = partial.keyId ?? keyIdOf(apiKey);
  return {
    keyId,
    numberId: partial.numberId ?? `of-${keyId}`,
    workspaceId: partial.workspaceId ?? 'default',
  };
}

function rule(
  key: string,
  budget: { limit: number; windowMs: number },
  marginMs: number,
  share?: string,
): BudgetRule {
  const base = { key, limit: budget.limit, windowMs: budget.windowMs + marginMs };
  return share === undefined ? base : { ...base, share };
}

/**
 * Default margin a client adds to every window: the skew between workers' clocks. Latency
 * needs none, since a taken unit counts until its request completes (see limiter.ts); but
 * one worker's completion time and another's take time come from different clocks, so
 * they may disagree by the skew (NTP keeps it to a few ms). Cost: 0.3% of a 60 s budget;
 * the 1 s burst rules never govern sustained throughput (600/min is below 20/s).
 */
export const DEFAULT_BUDGET_MARGIN_MS = 200;

/**
 * Rules one send takes, atomically: 20/s and 600/min per key and per number, 1,200/min
 * per workspace, shared fairly between the workspace's numbers (see fair-share.ts). Clients pass a `marginMs` (see {@link DEFAULT_BUDGET_MARGIN_MS}); the
 * server side (sandbox) counts exact windows.
 */
export function sendBudgetRules(id: BudgetIdentity, marginMs = 0): BudgetRule[] {
  return [
    rule(`send:key:${id.keyId}:1s`, BUDGETS.sendBurst, marginMs),
    rule(`send:key:${id.keyId}:60s`, BUDGETS.sendSustained, marginMs),
    rule(`send:number:${id.numberId}:1s`, BUDGETS.sendBurst, marginMs),
    rule(`send:number:${id.numberId}:60s`, BUDGETS.sendSustained, marginMs),
    rule(`send:workspace:${id.workspaceId}:60s`, BUDGETS.workspaceSend, marginMs, id.numberId),
  ];
}

/** Rules one read (any GET, media included) takes: 60/s and 3,000/min per key. */
export function readBudgetRules(id: BudgetIdentity, marginMs = 0): BudgetRule[] {
  return [
    rule(`read:key:${id.keyId}:1s`, BUDGETS.readBurst, marginMs),
    rule(`read:key:${id.keyId}:60s`, BUDGETS.readSustained, marginMs),
  ];
}

/**
 * Keys a 429/503 hint blocks. Only the key's and number's rules: the response speaks
 * for this key and number, and blocking the workspace would stall other keys.
 */
export function blockKeysFor(rules: readonly BudgetRule[]): string[] {
  return rules.map((r) => r.key).filter((k) => !k.startsWith('send:workspace:'));
}

/** Slot keys of media streams: 8 per key and 8 per number (spec part 8). */
export function mediaSlotKeys(id: BudgetIdentity): string[] {
  return [`media:key:${id.keyId}`, `media:number:${id.numberId}`];
}
