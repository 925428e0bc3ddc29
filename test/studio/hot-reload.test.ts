import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { compileFlow, type FlowDefinition } from '../../src/flows/index.js';
import type { ResolvedBot } from '../../src/bot/resolve-bot.js';
import { keepOrRestart, stateExists } from '../../src/studio/reload-bot.js';
import { startStudio, type Studio } from '../../src/studio/studio.js';
import { viewOfRequest } from '../../src/testing/message-view.js';
import { waitUntil } from '../wait-until.js';
import { BROKEN_FLOW, reloadFlow, tempFlow } from './reload-fixtures.js';

const PHONE = '+15551230001';

function flowOf(text: { states: Record<string, unknown>; version?: number }): ResolvedBot {
  const def = {
    id: 'reload-demo',
    version: text.version ?? 1,
    start: Object.keys(text.states)[0],
    states: text.states,
  } as unknown as FlowDefinition;
  return {
    flows: [compileFlow(def)],
    handlers: {},
    entry: undefined,
    templates: [],
    source: 'test',
  };
}

describe('keepOrRestart', () => {
  const next = flowOf({
    states: { welcome: { say: 'hi', goto: 'end' }, end: { say: 'bye', final: true } },
  });
  const conversation = { flowId: 'reload-demo', flowVersion: 1, state: 'welcome', ended: false };

  it('should keep a conversation whose state still exists', () => {
    expect(keepOrRestart(conversation, next)).toEqual({ action: 'keep' });
  });

  it('should restart at the start a conversation whose state is gone', () => {
    expect(keepOrRestart({ ...conversation, state: 'askName' }, next)).toEqual({
      action: 'restart',
      flowId: 'reload-demo',
      reason: 'state "askName" no longer exists in reload-demo',
    });
  });

  it('should leave a changed flow version to the flow version rule', () => {
    expect(keepOrRestart({ ...conversation, flowVersion: 2, state: 'gone' }, next)).toEqual({
      action: 'version-rule',
    });
  });

  it('should send a conversation of a removed flow to the entry flow, and keep ended ones', () => {
    expect(keepOrRestart({ ...conversation, flowId: 'old-flow' }, next)).toMatchObject({
      action: 'restart',
      flowId: 'reload-demo',
    });
    expect(keepOrRestart({ ...conversation, state: 'gone', ended: true }, next)).toEqual({
      action: 'keep',
    });
  });

  it('should find nested and top-level states of a machine', () => {
    const machine = next.flows[0]!.machine;
    expect(stateExists(machine, 'welcome')).toBe(true);
    expect(stateExists(machine, 'welcome.inner')).toBe(false);
    expect(stateExists(machine, 'nowhere')).toBe(false);
  });
});

describe('studio hot reload', () => {
  let studio: Studio | undefined;
  let temp: ReturnType<typeof tempFlow> | undefined;
  afterEach(async () => {
    await studio?.close();
    temp?.remove();
    studio = undefined;
  });

  const start = async (text: string): Promise<Studio> => {
    temp = tempFlow(text);
    studio = await startStudio({
      bot: temp.file,
      port: 0,
      clock: new ManualClock(),
      poll: false,
      debounceMs: 50,
    });
    return studio;
  };
  const say = async (s: Studio, text: string): Promise<void> => {
    s.runtime.sandbox.control.injectInbound({ type: 'text', from: PHONE, text });
    await s.runtime.settle();
  };
  const texts = (s: Studio): string[] =>
    s.runtime.sandbox.control.sent().map((r) => {
      const v = viewOfRequest(r.request);
      return 'text' in v ? v.text : v.type;
    });
  const state = async (s: Studio): Promise<string | undefined> => {
    const id = s.runtime.sandbox.control.conversations()[0]?.id;
    return id === undefined ? undefined : (await s.runtime.bot().inspect(id))?.state;
  };

  it('should reload an edited flow file and keep a running conversation where it is', async () => {
    const s = await start(reloadFlow());
    await say(s, 'hi');
    await say(s, 'apples');
    expect(await state(s)).toBe('apples');
    temp!.write(reloadFlow({ doneText: 'Noted: {{count}} apples, thanks!' }));
    expect(await waitUntil(() => s.botState().generation === 1, 30_000)).toBe(true);
    expect(s.botState().lastReload).toMatchObject({ kept: 1, restarted: [] });
    expect(await state(s)).toBe('apples');
    await say(s, '3');
    expect(texts(s).at(-1)).toBe('Noted: 3 apples, thanks!');
    // The greeting was sent once: the conversation was not started again.
    expect(texts(s).filter((t) => t === 'Apples or bananas?')).toHaveLength(1);
  }, 60_000);

  it('should send a conversation whose state was removed back to the start, keeping its variables', async () => {
    const s = await start(reloadFlow());
    await say(s, 'hi');
    await say(s, 'apples');
    temp!.write(reloadFlow({ askState: 'howMany' }));
    await s.reload();
    await s.runtime.settle();
    expect(s.botState().lastReload?.restarted).toEqual([
      expect.objectContaining({
        flowId: 'reload-demo',
        reason: 'state "apples" no longer exists in reload-demo',
      }),
    ]);
    expect(await state(s)).toBe('welcome');
    expect(texts(s).filter((t) => t === 'Apples or bananas?')).toHaveLength(2);
    await say(s, 'apples');
    expect(await state(s)).toBe('howMany');
  }, 60_000);

  it('should show a broken flow file with file:line and keep the previous bot running', async () => {
    const s = await start(reloadFlow());
    await say(s, 'hi');
    temp!.write(BROKEN_FLOW);
    expect(await waitUntil(() => s.botState().error !== undefined, 30_000)).toBe(true);
    expect(s.botState().error).toContain(`${temp!.file}:10:`);
    expect(s.botState().error).toContain('unknown state "banana"');
    // The previous bot still answers.
    await say(s, 'apples');
    expect(texts(s).at(-1)).toBe('How many apples?');
    // Fixed: the error is gone and the bot is the new one.
    temp!.write(reloadFlow({ doneText: 'Fixed: {{count}}.' }));
    expect(await waitUntil(() => s.botState().error === undefined, 30_000)).toBe(true);
    await say(s, '2');
    expect(texts(s).at(-1)).toBe('Fixed: 2.');
  }, 60_000);
});
