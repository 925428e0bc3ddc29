import { describe, expect, it } from 'vitest';
import { median, StateAnalytics } from '../../src/studio/state-analytics.js';

const MIN = 60_000;

describe('StateAnalytics', () => {
  const at = (
    analytics: StateAnalytics,
    id: string,
    state: string,
    minute: number,
    cause?: string,
    ended = false,
  ) => analytics.record({ conversationId: id, flowId: 'f', state, ended, at: minute * MIN, cause });

  it('should count visits and the median time of the visits that ended', () => {
    const a = new StateAnalytics();
    at(a, 'c1', 'welcome', 0, 'inbound.message');
    at(a, 'c1', 'faq', 2, 'inbound.message');
    at(a, 'c2', 'welcome', 0, 'inbound.message');
    at(a, 'c2', 'faq', 4, 'inbound.message');
    at(a, 'c3', 'welcome', 0, 'inbound.message');
    at(a, 'c3', 'faq', 9, 'inbound.message');
    const figures = a.figures('f', 9 * MIN);
    expect(figures['welcome']).toEqual({ visits: 3, dropOffs: 0, medianMs: 4 * MIN, current: 0 });
    expect(figures['faq']).toMatchObject({ visits: 3, medianMs: undefined, current: 3 });
  });

  it('should count a timeout and a conversation idle past the threshold as drop-offs, not a final state', () => {
    const a = new StateAnalytics({ idleMs: 10 * MIN });
    at(a, 'c1', 'welcome', 0, 'inbound.message');
    at(a, 'c1', 'idleGoodbye', 30, 'timer.fired', true);
    at(a, 'c2', 'welcome', 0, 'inbound.message');
    at(a, 'c3', 'welcome', 5, 'inbound.message');
    const figures = a.figures('f', 12 * MIN);
    // c1 timed out; c2 waits 12 min (dropped); c3 waits 7 min (not yet).
    expect(figures['welcome']).toEqual({ visits: 3, dropOffs: 2, medianMs: 30 * MIN, current: 2 });
    expect(figures['idleGoodbye']).toEqual({
      visits: 1,
      dropOffs: 0,
      medianMs: undefined,
      current: 1,
    });
    expect(a.figures('f', 60 * MIN)['idleGoodbye']?.dropOffs).toBe(0);
  });

  it('should not count the same state twice, nor the states before the first message', () => {
    const a = new StateAnalytics();
    at(a, 'c1', '_idle', 0);
    at(a, 'c1', 'welcome', 1, 'inbound.message');
    at(a, 'c1', 'welcome', 2, 'inbound.message');
    expect(a.figures('f', 2 * MIN)).toEqual({
      welcome: { visits: 1, dropOffs: 0, medianMs: undefined, current: 1 },
    });
    expect(a.figures('other', 2 * MIN)).toEqual({});
  });

  it('should take the median of odd and even counts', () => {
    expect(median([])).toBeUndefined();
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});
