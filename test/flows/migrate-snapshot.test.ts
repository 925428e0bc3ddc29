import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { Effect } from '../../src/flows/contract.js';
import {
  compileFlow,
  defineFlow,
  migrateSnapshot,
  type FlowDefinitionInput,
} from '../../src/flows/index.js';
import { drive, input, summary, text } from './helpers.js';

const v1: FlowDefinitionInput = {
  id: 'm',
  version: 1,
  start: 'askSize',
  states: {
    askSize: { ask: { prompt: 'Size?', var: 'size', goto: 'done' } },
    done: { say: 'Got {{size}}', final: true },
  },
};

const v2 = defineFlow({
  id: 'm',
  version: 2,
  start: 'hello',
  migrate: { askSize: 'chooseSize' },
  states: {
    hello: { say: 'Hello!', goto: 'chooseSize' },
    chooseSize: {
      say: 'New sizes!',
      ask: {
        prompt: 'Which size?',
        retry: 'S, M or L?',
        var: 'size',
        validate: { kind: 'oneOf', values: ['S', 'M', 'L'] },
        goto: 'done',
      },
      timeout: { after: '1h', goto: 'done' },
    },
    done: { say: 'Got {{size}}', final: true },
  },
});

/** A v1 snapshot waiting in askSize, migrated to `def` and restored into its machine. */
function migrated(def: ReturnType<typeof defineFlow>) {
  const d = drive(v1);
  d.send(text('hi'));
  const persisted = JSON.parse(JSON.stringify(d.actor.getPersistedSnapshot())) as unknown;
  const snapshot = migrateSnapshot(def, persisted);
  const actor = createActor(compileFlow(def).machine, { input, snapshot: snapshot as never });
  return { snapshot, actor: actor.start() };
}

describe('migrateSnapshot', () => {
  it('should mark a removed state without a migrate entry as a first-message restart', () => {
    const bare = defineFlow({ ...v2, migrate: {} });
    expect(migrated(bare).snapshot).toMatchObject({
      value: '_idle',
      context: { resumeAt: 'hello', resumeFirst: true },
    });
    expect(migrated(v2).snapshot).toMatchObject({
      value: '_idle',
      context: { resumeAt: 'chooseSize' },
    });
    expect(
      Reflect.get(Object(Reflect.get(Object(migrated(v2).snapshot), 'context')), 'resumeFirst'),
    ).toBeUndefined();
  });

  it('should land quietly in the migrate target and take the message as its answer', () => {
    const { actor } = migrated(v2);
    actor.send(text('M'));
    const snap = actor.getSnapshot();
    expect(snap.value).toBe('done');
    expect(snap.context.vars).toMatchObject({ size: 'M' });
    // No "New sizes!", no prompt: the timeout started on landing is cancelled on leaving.
    expect(summary(snap.context.outbox as Effect[])).toEqual([
      'timer.start',
      'timer.cancel',
      'text:Got M',
      'end',
    ]);
    expect(JSON.stringify(actor.getPersistedSnapshot())).not.toContain('landing');
  });

  it('should keep the landed state waiting, with its timer, after an answer it refuses', () => {
    const { actor } = migrated(v2);
    actor.send(text('huge'));
    const snap = actor.getSnapshot();
    expect(snap.value).toBe('chooseSize');
    expect(summary(snap.context.outbox as Effect[])).toEqual(['timer.start', 'text:S, M or L?']);
    expect(snap.context.timer).toMatch(/^chooseSize@/);
    expect(snap.context.attempts).toBe(1);
  });

  it('should enter the target with its messages when a timer moves it (no message to take)', () => {
    const { actor } = migrated(v2);
    actor.send({ type: 'timer.fired', name: 'askSize@1' });
    expect(summary(actor.getSnapshot().context.outbox as Effect[])).toEqual([
      'text:New sizes!',
      'text:Which size?',
      'timer.start',
    ]);
  });

  it('should handle the message as a first message when there is no target', () => {
    const { actor } = migrated(defineFlow({ ...v2, migrate: {} }));
    actor.send(text('M'));
    expect(actor.getSnapshot().value).toBe('chooseSize');
    expect(summary(actor.getSnapshot().context.outbox as Effect[])).toEqual([
      'text:Hello!',
      'text:New sizes!',
      'text:Which size?',
      'timer.start',
    ]);
  });

  it('should move a conversation still waiting to resume into a state a newer version removed', () => {
    const { snapshot } = migrated(v2);
    const v3 = defineFlow({
      ...v2,
      version: 3,
      migrate: { chooseSize: 'pick' },
      states: {
        hello: { say: 'Hello!', goto: 'pick' },
        pick: { ask: { prompt: 'Pick', var: 'size', goto: 'done' } },
        done: { say: 'Got {{size}}', final: true },
      },
    });
    expect(migrateSnapshot(v3, snapshot)).toMatchObject({
      value: '_idle',
      context: { resumeAt: 'pick' },
    });
  });
});
