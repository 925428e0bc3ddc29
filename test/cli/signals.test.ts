import { afterEach, describe, expect, it } from 'vitest';
import { catchSignals } from '../../src/cli/signals.js';

describe('catchSignals', () => {
  const before = {
    SIGINT: process.listeners('SIGINT'),
    SIGTERM: process.listeners('SIGTERM'),
  };
  afterEach(() => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      for (const listener of process.listeners(signal))
        if (!before[signal].includes(listener)) process.off(signal, listener);
  });

  it('should hold a signal that comes before the handler and run the handler with it', () => {
    const signals = catchSignals();
    process.emit('SIGTERM', 'SIGTERM');
    process.emit('SIGINT', 'SIGINT');
    const seen: string[] = [];
    signals.handle((signal) => seen.push(signal));
    expect(seen).toEqual(['SIGTERM']);
  });

  it('should pass every later signal to the handler', () => {
    const signals = catchSignals();
    const seen: string[] = [];
    signals.handle((signal) => seen.push(signal));
    expect(seen).toEqual([]);
    process.emit('SIGINT', 'SIGINT');
    process.emit('SIGTERM', 'SIGTERM');
    expect(seen).toEqual(['SIGINT', 'SIGTERM']);
  });
});
