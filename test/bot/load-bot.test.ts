import { describe, expect, it } from 'vitest';
import { defineBot, loadBot, resolveBot } from '../../src/bot/index.js';
import { defineFlow } from '../../src/flows/index.js';

describe('loadBot', () => {
  it('should load a flow file as a bot without handlers', async () => {
    const r = await loadBot('flows/support-desk.yaml');
    expect(r.status).toBe('ok');
    if (r.status === 'ok') expect(r.bot.flows.map((f) => f.id)).toEqual(['support-desk']);
  });

  it('should load a bot directory through its bot.ts, resolving flow URLs', async () => {
    const r = await loadBot('examples/order-status');
    expect(r.status).toBe('ok');
    if (r.status !== 'ok') return;
    expect(r.bot.flows[0]?.id).toBe('order-status');
    expect(Object.keys(r.bot.handlers).sort()).toEqual(['lookupOrder', 'reportUndeliverable']);
  });

  it('should resolve relative flow paths against the module and name missing handlers', async () => {
    const r = await loadBot('test/fixtures/bots/missing-handler');
    expect(r).toEqual({
      status: 'error',
      message: expect.stringMatching(
        /missing-handler\/bot\.ts: missing handler "reportUndeliverable" \(flow order-status\)/,
      ),
    });
  });

  it('should say when a module does not export a bot', async () => {
    const r = await loadBot('test/fixtures/bots/bad-export/bot.ts');
    expect(r).toEqual({
      status: 'error',
      message: expect.stringContaining('the module must export `bot`'),
    });
  });

  it('should report flow errors with the file position', async () => {
    const r = await loadBot('test/fixtures/flows/broken-lint.yaml');
    expect(r.status).toBe('error');
    if (r.status === 'error') expect(r.message).toMatch(/broken-lint\.yaml:\d+:\d+ error/);
  });

  it('should report a path that does not exist', async () => {
    expect(await loadBot('nope/missing.yaml')).toEqual({
      status: 'error',
      message: 'nope/missing.yaml: no such file or directory',
    });
  });
});

describe('resolveBot', () => {
  it('should compile flow definitions and reject an unknown entry flow', async () => {
    const flow = defineFlow({
      id: 'one',
      version: 1,
      start: 'a',
      states: { a: { say: 'A', final: true } },
    });
    const ok = await resolveBot(defineBot({ flows: [flow] }));
    expect(ok.status).toBe('ok');
    const bad = await resolveBot(defineBot({ flows: [flow], entry: 'two' }));
    expect(bad).toEqual({
      status: 'error',
      message: '(inline bot): entry flow "two" is not among the flows (one)',
    });
  });

  it('should refuse a bot without flows', () => {
    expect(() => defineBot({ flows: [] })).toThrow(/at least one flow/);
  });

  it('should keep a bot name and refuse an empty or overlong one', async () => {
    const flow = defineFlow({
      id: 'one',
      version: 1,
      start: 'a',
      states: { a: { say: 'A', final: true } },
    });
    const named = await resolveBot(defineBot({ name: 'Order desk', flows: [flow] }));
    expect(named.status === 'ok' ? named.bot.name : undefined).toBe('Order desk');
    const unnamed = await resolveBot(defineBot({ flows: [flow] }));
    expect(unnamed.status === 'ok' ? unnamed.bot.name : 'x').toBeUndefined();
    expect(() => defineBot({ name: ' ', flows: [flow] })).toThrow(
      'defineBot: `name` must be a text of 1 to 100 characters (got 1 characters)',
    );
    expect(() => defineBot({ name: 'x'.repeat(101), flows: [flow] })).toThrow(/got 101 characters/);
  });

  it('should carry the sends options to the resolved bot and refuse a bad one with its path', async () => {
    const flow = defineFlow({
      id: 'one',
      version: 1,
      start: 'a',
      states: { a: { say: 'A', final: true } },
    });
    const opted = await resolveBot(
      defineBot({ flows: [flow], sends: { resendAfterAbsence: true } }),
    );
    expect(opted.status === 'ok' ? opted.bot.sends : undefined).toEqual({
      resendAfterAbsence: true,
    });
    const plain = await resolveBot(defineBot({ flows: [flow] }));
    expect(plain.status === 'ok' ? plain.bot : {}).not.toHaveProperty('sends');
    const typo = { resendAfterAbsense: true } as unknown as { resendAfterAbsence: boolean };
    expect(() => defineBot({ flows: [flow], sends: typo })).toThrow(
      'defineBot: sends: unknown option "resendAfterAbsense" (known: resendAfterAbsence)',
    );
  });
});
