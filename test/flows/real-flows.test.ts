import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { compileFlow, loadFlowFile } from '../../src/flows/index.js';
import { input, summary, tap, text, wrap } from './helpers.js';

async function load(file: string) {
  const r = await loadFlowFile(file);
  if (r.status !== 'ok') throw new Error(`${file} does not load`);
  return compileFlow(r.flow);
}

describe('flows/appointment-booking.yaml', () => {
  it('should book through dynamic slots and send the reminder with a template fallback', async () => {
    const flow = await load('flows/appointment-booking.yaml');
    expect(flow.handlers).toEqual(['bookSlot', 'findSlots']);
    const d = wrap(createActor(flow.machine, { input }).start());
    d.send(text('hi'));
    d.send(text('book'));
    d.send(text('2026-02-30'));
    expect(d.state()).toBe('askDate');
    const [, call] = d.send(text('2026-03-14'));
    expect(call).toMatchObject({
      kind: 'call',
      handler: 'findSlots',
      input: { date: '2026-03-14' },
    });
    d.send({
      type: 'handler.done',
      requestId: d.context().pending ?? '',
      handler: 'findSlots',
      outcome: 'available',
      vars: { slots: JSON.stringify([{ id: 's-10', title: '10:00' }]) },
    });
    expect(d.state()).toBe('pickSlot');
    d.send(tap('v2.pickSlot.s-10'));
    d.send(text('+1 415 555 0123'));
    d.send(tap('v2.confirm.confirm'));
    d.send({
      type: 'handler.done',
      requestId: d.context().pending ?? '',
      handler: 'bookSlot',
      outcome: 'booked',
      vars: { bookingId: 'B7', appointmentAt: '2026-03-14T10:00:00.000Z' },
    });
    expect(d.state()).toBe('booked');
    const timer = d.context().outbox.find((e) => e.kind === 'timer.start');
    expect(timer).toMatchObject({ at: Date.parse('2026-03-13T10:00:00.000Z') });
    const out = d.send({ type: 'timer.fired', name: String(Reflect.get(d.context(), 'reminder')) });
    expect(out[1]).toMatchObject({
      kind: 'send',
      window: {
        onClosed: 'template',
        template: {
          template: {
            name: 'appointment_reminder',
            language: { code: 'en_US' },
            components: [
              {
                type: 'body',
                parameters: [
                  { type: 'text', text: 'Ana' },
                  { type: 'text', text: '2026-03-14' },
                  { type: 'text', text: '10:00' },
                ],
              },
            ],
          },
        },
      },
    });
    expect(d.state()).toBe('reminder');
    expect(summary(out).at(-1)).toBe('menu:button');
  });
});

describe('flows/order-status.yaml', () => {
  it('should send invoice, location and contact card, then route an opted-out rejection', async () => {
    const flow = await load('flows/order-status.yaml');
    const d = wrap(createActor(flow.machine, { input }).start());
    d.send(text('hi'));
    d.send(text('1234567'));
    const out = d.send({
      type: 'handler.done',
      requestId: d.context().pending ?? '',
      handler: 'lookupOrder',
      outcome: 'ready',
    });
    expect(summary(out)).toEqual([
      'text:Good news! Order 1234567 is ready for pickup.',
      'document',
      'location',
      'contacts',
      'menu:button',
      'timer.start',
    ]);
    d.send({ type: 'send.failed', seq: 3, code: 'contact_opted_out' });
    expect(d.state()).toBe('optedOut');
    expect(d.context().outbox.find((e) => e.kind === 'call')).toMatchObject({
      handler: 'reportUndeliverable',
      input: { reason: 'opted_out', code: 'contact_opted_out', orderNumber: '1234567' },
    });
  });
});
