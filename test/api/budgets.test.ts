import { describe, expect, it } from 'vitest';
import {
  blockKeysFor,
  keyIdOf,
  mediaSlotKeys,
  readBudgetRules,
  resolveIdentity,
  sendBudgetRules,
} from '../../src/api/budgets.js';
import { BUDGETS } from '../../src/core/limits.js';

const KEY = 'sk_live_abcdefghijklmnop';

describe('budgets', () => {
  it('should derive a key id that does not contain the key', () => {
    const id = keyIdOf(KEY);
    expect(id).toMatch(/^k_[0-9a-f]{16}$/);
    expect(id).not.toContain(KEY);
    expect(keyIdOf(KEY)).toBe(id);
    expect(keyIdOf(`${KEY}x`)).not.toBe(id);
  });

  it('should build the send rules of spec part 8 per key, number and workspace', () => {
    const rules = sendBudgetRules(
      resolveIdentity(KEY, { keyId: 'k', numberId: 'n', workspaceId: 'w' }),
    );
    expect(rules).toEqual([
      { key: 'send:key:k:1s', limit: 20, windowMs: 1_000 },
      { key: 'send:key:k:60s', limit: 600, windowMs: 60_000 },
      { key: 'send:number:n:1s', limit: 20, windowMs: 1_000 },
      { key: 'send:number:n:60s', limit: 600, windowMs: 60_000 },
      { key: 'send:workspace:w:60s', limit: 1_200, windowMs: 60_000, share: 'n' },
    ]);
    expect(blockKeysFor(rules)).not.toContain('send:workspace:w:60s');
    expect(blockKeysFor(rules)).toHaveLength(4);
  });

  it('should build the read rules and media slot keys', () => {
    const id = resolveIdentity(KEY);
    expect(readBudgetRules(id).map((r) => [r.limit, r.windowMs])).toEqual([
      [BUDGETS.readBurst.limit, 1_000],
      [BUDGETS.readSustained.limit, 60_000],
    ]);
    expect(mediaSlotKeys(id)).toEqual([`media:key:${id.keyId}`, `media:number:${id.numberId}`]);
    expect(JSON.stringify(id)).not.toContain(KEY);
  });

  it('should widen every window by the client margin, never the limits', () => {
    const id = resolveIdentity(KEY);
    const exact = [...sendBudgetRules(id), ...readBudgetRules(id)];
    const widened = [...sendBudgetRules(id, 250), ...readBudgetRules(id, 250)];
    expect(widened.map((r) => r.windowMs)).toEqual(exact.map((r) => r.windowMs + 250));
    expect(widened.map((r) => r.limit)).toEqual(exact.map((r) => r.limit));
  });
});
