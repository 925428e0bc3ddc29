import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelope } from '../../src/api/resources.js';
import { ADA, KEYS, startSandbox, textTo, type Harness } from './helpers.js';

describe('sandbox authentication and scopes', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startSandbox();
  });
  afterAll(async () => {
    await h.close();
  });

  const expectError = async (res: Response, status: number, code: string) => {
    expect(res.status).toBe(status);
    const body = ErrorEnvelope.parse(await res.json());
    expect(body.code).toBe(code);
    expect(body.message.length).toBeGreaterThan(0);
  };

  it('should answer 401 unauthorized without an Authorization header', async () => {
    await expectError(await h.call('/v1/conversations', { key: null }), 401, 'unauthorized');
  });

  it('should answer 401 unauthorized for a malformed Authorization header', async () => {
    const res = await fetch(`${h.url}/v1/conversations`, {
      headers: { authorization: 'Basic abc' },
    });
    await expectError(res, 401, 'unauthorized');
  });

  it.each([
    ['an unknown key', 'sk_nope_000000000'],
    ['a revoked key', KEYS.revoked],
    ['a rotated key', KEYS.rotated],
  ])('should answer 401 invalid_api_key for %s', async (_name, key) => {
    await expectError(await h.call('/v1/conversations', { key }), 401, 'invalid_api_key');
  });

  it('should answer 403 insufficient_scope for a send with a read-only key', async () => {
    await expectError(
      await h.call('/v1/messages', { key: KEYS.readOnly, body: textTo(ADA) }),
      403,
      'insufficient_scope',
    );
  });

  it('should answer 403 insufficient_scope for a read or media download with a send-only key', async () => {
    await expectError(
      await h.call('/v1/conversations', { key: KEYS.sendOnly }),
      403,
      'insufficient_scope',
    );
    await expectError(
      await h.call('/v1/media/med_x', { key: KEYS.readOnly }),
      403,
      'insufficient_scope',
    );
  });

  it('should answer 409 instance_not_api_managed for reads and writes of a dashboard-handled number', async () => {
    await expectError(
      await h.call('/v1/conversations', { key: KEYS.dashboard }),
      409,
      'instance_not_api_managed',
    );
    await expectError(
      await h.call('/v1/messages', { key: KEYS.dashboard, body: textTo(ADA) }),
      409,
      'instance_not_api_managed',
    );
  });

  it('should answer 409 instance_unavailable for a disconnected number', async () => {
    await expectError(
      await h.call('/v1/conversations', { key: KEYS.offline }),
      409,
      'instance_unavailable',
    );
  });

  it('should answer 403 api_key_not_allowed on control and dashboard routes called with a key', async () => {
    await expectError(await h.call('/sandbox/sent'), 403, 'api_key_not_allowed');
    await expectError(
      await h.call('/sandbox/reset', { method: 'POST', body: {} }),
      403,
      'api_key_not_allowed',
    );
    await expectError(await h.call('/dashboard/inbox'), 403, 'api_key_not_allowed');
  });

  it('should reject a key after the control API revokes its number handling', async () => {
    h.sandbox.control.setNumber('num_b', { handling: 'dashboard' });
    await expectError(
      await h.call('/v1/conversations', { key: KEYS.other }),
      409,
      'instance_not_api_managed',
    );
    h.sandbox.control.setNumber('num_b', { handling: 'developer_api' });
    expect((await h.call('/v1/conversations', { key: KEYS.other })).status).toBe(200);
  });
});
