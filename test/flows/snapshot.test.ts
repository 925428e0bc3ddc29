import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { compileFlow, loadFlowFile } from '../../src/flows/index.js';
import { input, summary, tap, text, wrap } from './helpers.js';

async function supportDesk() {
  const r = await loadFlowFile('flows/support-desk.yaml');
  if (r.status !== 'ok') throw new Error('support-desk.yaml does not load');
  return compileFlow(r.flow);
}

describe('persisted snapshots', () => {
  it('should round-trip through JSON and continue where they left off', async () => {
    const flow = await supportDesk();
    const first = wrap(createActor(flow.machine, { input }).start());
    first.send(text('hello'));
    const json = JSON.stringify(first.actor.getPersistedSnapshot());
    first.actor.stop();

    const restored = wrap(createActor(flow.machine, { snapshot: JSON.parse(json), input }).start());
    expect(restored.state()).toBe('welcome');
    const out = restored.send(tap('v1.welcome.faq'));
    expect(restored.state()).toBe('faq');
    expect(summary(out)).toEqual(['timer.cancel', 'menu:list', 'timer.start']);
    expect(out[0]?.seq).toBe(4);
  });

  it('should stay under 1 KB for a typical flow waiting on a menu', async () => {
    const flow = await supportDesk();
    const d = wrap(createActor(flow.machine, { input }).start());
    d.send(text('hello'));
    d.send(tap('v1.welcome.faq'));
    d.send(tap('v1.faq.hours'));
    const size = Buffer.byteLength(JSON.stringify(d.actor.getPersistedSnapshot()));
    expect(d.state()).toBe('more');
    expect(size).toBeLessThan(1024);
  });

  it('should restore a snapshot taken during a handoff and resume on release', async () => {
    const flow = await supportDesk();
    const d = wrap(createActor(flow.machine, { input }).start());
    d.send(text('hello'));
    d.send(tap('v1.welcome.human'));
    expect(d.state()).toBe('handoff');
    const restored = wrap(
      createActor(flow.machine, {
        snapshot: JSON.parse(JSON.stringify(d.actor.getPersistedSnapshot())),
        input,
      }).start(),
    );
    expect(restored.send(text('anyone?'))).toEqual([]);
    restored.send({ type: 'handoff.released' });
    expect(restored.state()).toBe('more');
  });
});
