import { describe, expect, it } from 'vitest';
import { canonicalJson, fingerprintContent } from '../../src/api/fingerprint.js';

describe('fingerprintContent', () => {
  it('should hash the content object independently of key order', () => {
    const a = fingerprintContent({ type: 'location', location: { latitude: 1, longitude: 2 } });
    const b = fingerprintContent({ type: 'location', location: { longitude: 2, latitude: 1 } });
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).toBe(b);
  });

  it('should differ when the content differs and ignore the envelope', () => {
    const one = {
      messaging_product: 'whatsapp',
      to: '+14155550123',
      type: 'text',
      text: { body: 'a' },
    };
    expect(fingerprintContent(one)).not.toBe(fingerprintContent({ ...one, text: { body: 'b' } }));
    expect(fingerprintContent(one)).toBe(fingerprintContent({ ...one, to: '+14155550999' }));
  });

  it('should write canonical JSON with sorted keys at every depth', () => {
    expect(canonicalJson({ b: [{ y: 1, x: 2 }], a: null, c: undefined })).toBe(
      '{"a":null,"b":[{"x":2,"y":1}]}',
    );
  });
});
