import { describe, expect, it } from 'vitest';
import { decodeOptionId, encodeOptionId, type FlowDefinitionInput } from '../../src/flows/index.js';
import { drive, summary, tap, text } from './helpers.js';

describe('option ids', () => {
  it('should encode version, state and option and decode them back', () => {
    expect(encodeOptionId(3, 'menu', 'faq')).toBe('v3.menu.faq');
    expect(decodeOptionId('v3.menu.faq')).toEqual({ version: 3, state: 'menu', option: 'faq' });
    expect(decodeOptionId('v1.pick.2026-03-14T10:00.a')).toEqual({
      version: 1,
      state: 'pick',
      option: '2026-03-14T10:00.a',
    });
  });

  it('should not decode foreign ids', () => {
    expect(decodeOptionId('faq')).toBeUndefined();
    expect(decodeOptionId('v.menu.faq')).toBeUndefined();
    expect(decodeOptionId('v1.menu.')).toBeUndefined();
  });
});

const v = (version: number): FlowDefinitionInput => ({
  id: 'stale-demo',
  version,
  start: 'first',
  stale: 'That menu is old; here is the current one.',
  states: {
    first: { menu: { body: 'First', options: [{ id: 'next', title: 'Next', goto: 'second' }] } },
    second: { menu: { body: 'Second', options: [{ id: 'next', title: 'Again', goto: 'done' }] } },
    done: { say: 'Done', final: true },
  },
});

describe('stale taps', () => {
  it('should re-show the current menu for a tap on an older menu of the same version', () => {
    const d = drive(v(1));
    d.send(text('hi'));
    d.send(tap('v1.first.next'));
    expect(d.state()).toBe('second');
    const out = d.send(tap('v1.first.next'));
    expect(d.state()).toBe('second');
    expect(summary(out)).toEqual([
      'text:That menu is old; here is the current one.',
      'menu:button',
    ]);
  });

  it('should treat a tap from another flow version as stale', () => {
    const d = drive(v(2));
    d.send(text('hi'));
    d.send(tap('v1.first.next'));
    expect(d.state()).toBe('first');
    expect(summary(d.context().outbox)).toEqual([
      'text:That menu is old; here is the current one.',
      'menu:button',
    ]);
  });

  it('should treat an undecodable id as stale', () => {
    const d = drive(v(1));
    d.send(text('hi'));
    d.send(tap('next'));
    expect(d.state()).toBe('first');
  });
});
