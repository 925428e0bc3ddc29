import { describe, expect, it } from 'vitest';
import { fingerprintContent } from '../../src/api/fingerprint.js';
import { recordFingerprint } from '../../src/engine/reconcile.js';
import type { SendRecord } from '../../src/store/store.js';

const request = {
  messaging_product: 'whatsapp',
  to: '+14155550123',
  type: 'text',
  text: { body: 'Your order shipped' },
};
const base: SendRecord = {
  id: 'c1:1:0',
  conversationId: 'c1',
  seq: 0,
  state: 'unknown',
  startedAt: 1,
  contentType: 'text',
};

describe('recordFingerprint', () => {
  it('derives the fingerprint from the request an open record keeps', () => {
    expect(recordFingerprint({ ...base, request })).toBe(fingerprintContent(request));
    // The same content as history shows it (no envelope) gives the same fingerprint.
    expect(recordFingerprint({ ...base, request })).toBe(
      fingerprintContent({ type: 'text', text: { body: 'Your order shipped' } }),
    );
  });

  it('uses the stored fingerprint of a record written by an earlier version', () => {
    expect(recordFingerprint({ ...base, fingerprint: 'abc', request })).toBe('abc');
  });

  it('has none when the record keeps neither', () => {
    expect(recordFingerprint(base)).toBeUndefined();
    expect(recordFingerprint({ ...base, request: 'not an object' })).toBeUndefined();
  });
});
