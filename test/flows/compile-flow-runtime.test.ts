import { describe, expect, it } from 'vitest';
import type { FlowDefinitionInput } from '../../src/flows/index.js';
import { drive, summary, tap, text } from './helpers.js';

const rows = JSON.stringify([
  { id: 's1', title: '10:00' },
  { id: 's2', title: '11:30', description: 'Late morning' },
]);

const flow: FlowDefinitionInput = {
  id: 'runtime-demo',
  version: 1,
  start: 'pick',
  onError: 'oops',
  onRelease: 'released',
  vars: { slots: rows, bad: 'not json', long: 'x'.repeat(30) },
  onSendFailed: [{ codes: ['contact_opted_out'], goto: 'optedOut' }, { goto: 'failedLater' }],
  states: {
    pick: {
      menu: {
        type: 'list',
        body: 'Pick a time',
        button: 'Times',
        rowsFrom: 'slots',
        onSelect: { var: 'slot', goto: 'remind' },
        options: [{ id: 'none', title: 'None of these', goto: 'oops' }],
      },
    },
    remind: {
      say: [
        {
          text: 'You picked {{slotTitle}}',
          window: {
            onClosed: 'template',
            template: {
              name: 'appointment_reminder',
              language: 'en_US',
              components: [{ type: 'body', parameters: [{ type: 'text', text: '{{slotTitle}}' }] }],
            },
          },
        },
        { text: 'Second', window: { onClosed: 'goto', goto: 'closed' } },
      ],
      timeout: { after: '1h', goto: 'broken' },
    },
    broken: {
      say: 'Title {{long}}',
      menu: { body: 'b', options: [{ id: 'a', title: '{{long}}', goto: 'oops' }] },
    },
    closed: { say: 'Window closed', final: true },
    optedOut: { say: 'opted out', final: true },
    failedLater: { say: 'failed {{error.code}}', final: true },
    released: { say: 'released', final: true },
    oops: { say: 'Oops {{error.code}}', final: true },
  },
};

describe('compiled machine at run time', () => {
  it('should list dynamic rows from a variable and store the chosen row', () => {
    const d = drive(flow);
    const [menu] = d.send(text('hi'));
    expect(menu).toMatchObject({
      kind: 'send',
      content: {
        interactive: {
          action: {
            button: 'Times',
            sections: [
              {
                title: 'Times',
                rows: [
                  { id: 'v1.pick.s1', title: '10:00' },
                  { id: 'v1.pick.s2' },
                  { id: 'v1.pick.none' },
                ],
              },
            ],
          },
        },
      },
    });
    d.send(tap('v1.pick.s2'));
    expect(d.context().vars).toMatchObject({ slot: 's2', slotTitle: '11:30' });
  });

  it('should match typed text against dynamic row titles', () => {
    const d = drive(flow);
    d.send(text('hi'));
    d.send(text('10:00'));
    expect(d.state()).toBe('remind');
    expect(d.context().vars).toMatchObject({ slot: 's1' });
  });

  it('should attach window rules: a template fallback, or an event remembered by seq', () => {
    const d = drive(flow);
    d.send(text('hi'));
    const out = d.send(tap('v1.pick.s1'));
    expect(out[0]).toEqual({
      kind: 'send',
      seq: 2,
      content: { type: 'text', text: { body: 'You picked 10:00' } },
      window: {
        onClosed: 'template',
        template: {
          type: 'template',
          template: {
            name: 'appointment_reminder',
            language: { code: 'en_US' },
            components: [{ type: 'body', parameters: [{ type: 'text', text: '10:00' }] }],
          },
        },
      },
    });
    expect(out[1]).toMatchObject({ seq: 3, window: { onClosed: 'event' } });
    d.send({ type: 'window.closed', seq: 99 });
    expect(d.state()).toBe('remind');
    d.send({ type: 'window.closed', seq: 3 });
    expect(d.state()).toBe('closed');
  });

  it('should not send invalid interpolated content and go to the error target', () => {
    const d = drive(flow);
    d.send(text('hi'));
    d.send(tap('v1.pick.s1'));
    const out = d.send({ type: 'timer.fired', name: String(d.context().timer) });
    expect(d.state()).toBe('oops');
    expect(summary(out)).toEqual([
      'timer.cancel',
      'text:Title xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      'text:Oops invalid_content',
      'end',
    ]);
    expect(d.context().lastError?.message).toContain('states.broken.menu');
  });

  it('should route send failures by code', () => {
    const a = drive(flow);
    a.send(text('hi'));
    a.send({ type: 'send.failed', seq: 1, code: 'contact_opted_out' });
    expect(a.state()).toBe('optedOut');
    const b = drive(flow);
    b.send(text('hi'));
    b.send({ type: 'send.unknown', seq: 1 });
    expect(b.state()).toBe('failedLater');
    expect(summary(b.context().outbox)).toEqual(['text:failed unknown', 'end']);
  });

  it('should apply the flow onRelease rule outside a handoff state', () => {
    const d = drive(flow);
    d.send(text('hi'));
    d.send({ type: 'handoff.released' });
    expect(d.state()).toBe('released');
  });

  it('should send the error target when rowsFrom is not JSON rows', () => {
    const d = drive({
      ...flow,
      states: {
        ...flow.states,
        pick: {
          menu: {
            type: 'list',
            body: 'b',
            button: 'B',
            rowsFrom: 'bad',
            onSelect: { goto: 'remind' },
          },
        },
      },
    });
    d.send(text('hi'));
    expect(d.state()).toBe('oops');
    expect(d.context().lastError?.message).toContain(
      'rowsFrom variable "bad" is not a JSON array of rows',
    );
  });
});
