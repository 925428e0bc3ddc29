/** Shared fixtures of the stored-document tests. */

export const contact = { phone: '+15551230001', id: 'ct1', name: 'Ada' };

export const send = {
  kind: 'send' as const,
  seq: 2,
  content: { type: 'text', text: { body: 'hi' } },
  window: { onClosed: 'wait' as const },
};

/** What the store does: a JSON round trip. */
export const viaJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** A sub-flow call frame waiting with the caller's `snapshot`. */
export const stackFrame = (snapshot: unknown) => ({
  flowId: 'main',
  flowVersion: 1,
  snapshot,
  state: 'x',
  requestId: 'x#3',
});
