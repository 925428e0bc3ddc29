import { ManualClock } from '../../src/core/clock.js';
import {
  createSandbox,
  parseSandboxConfig,
  type Sandbox,
  type SandboxConfigInput,
} from '../../src/sandbox/index.js';
import { waitUntil } from '../wait-until.js';

export const START = Date.parse('2026-03-01T12:00:00.000Z');
export const ADA = '+15551230001';
export const BOB = '+15551230002';

export const KEYS = {
  full: 'sk_test_full_000000',
  readOnly: 'sk_test_read_000000',
  sendOnly: 'sk_test_send_000000',
  revoked: 'sk_test_revoked_000',
  rotated: 'sk_test_rotated_000',
  other: 'sk_test_other_00000',
  dashboard: 'sk_test_dash_000000',
  offline: 'sk_test_offline_000',
} as const;

/** A configuration with several numbers and keys, for conformance tests. */
export const testConfigInput: SandboxConfigInput = {
  numbers: [
    { id: 'num_a', phoneNumber: '+15550000001' },
    { id: 'num_b', phoneNumber: '+15550000002' },
    { id: 'num_dash', phoneNumber: '+15550000003', handling: 'dashboard' },
    { id: 'num_off', phoneNumber: '+15550000004', connected: false },
  ],
  keys: [
    { key: KEYS.full, number: 'num_a' },
    { key: KEYS.readOnly, number: 'num_a', scopes: ['messages:read'] },
    { key: KEYS.sendOnly, number: 'num_a', scopes: ['messages:send'] },
    { key: KEYS.revoked, number: 'num_a', state: 'revoked' },
    { key: KEYS.rotated, number: 'num_a', state: 'rotated' },
    { key: KEYS.other, number: 'num_b' },
    { key: KEYS.dashboard, number: 'num_dash' },
    { key: KEYS.offline, number: 'num_off' },
  ],
  contacts: [
    { phoneNumber: ADA, name: 'Ada' },
    { phoneNumber: BOB, name: 'Bob', reads: false },
    { phoneNumber: '+15551230009', name: 'Failing', failureCode: 'undeliverable' },
  ],
  templates: [
    { name: 'hello', language: 'en', components: [{ type: 'body' }] },
    {
      name: 'reminder',
      language: 'en',
      components: [
        { type: 'header', parameters: ['image'] },
        { type: 'body', parameters: ['text', 'date_time'] },
      ],
    },
    { name: 'promo', language: 'en', category: 'marketing' },
    { name: 'draft', language: 'en', status: 'pending' },
  ],
};

export interface Harness {
  sandbox: Sandbox;
  clock: ManualClock;
  url: string;
  /** fetch against the sandbox with a key (or none). */
  call(
    path: string,
    init?: { method?: string; key?: string | null; body?: unknown; raw?: string },
  ): Promise<Response>;
  close(): Promise<void>;
}

/** Starts a sandbox on 127.0.0.1:0 with a manual clock. */
export async function startSandbox(
  overrides: Partial<SandboxConfigInput> = {},
  random?: () => number,
): Promise<Harness> {
  const parsed = parseSandboxConfig({ ...testConfigInput, ...overrides });
  if (parsed.status !== 'valid') throw new Error(parsed.message);
  const clock = new ManualClock(START);
  const sandbox = createSandbox({
    config: parsed.config,
    clock,
    tickMs: 0,
    ...(random ? { random } : {}),
  });
  const server = await sandbox.listen();
  return {
    sandbox,
    clock,
    url: server.url,
    call(path, init = {}) {
      const key = init.key === undefined ? KEYS.full : init.key;
      const headers: Record<string, string> = { accept: 'application/json' };
      if (key !== null) headers['authorization'] = `Bearer ${key}`;
      let body: string | undefined;
      if (init.raw !== undefined) body = init.raw;
      else if (init.body !== undefined) body = JSON.stringify(init.body);
      if (body !== undefined) headers['content-type'] = 'application/json';
      return fetch(`${server.url}${path}`, {
        method: init.method ?? (body === undefined ? 'GET' : 'POST'),
        headers,
        ...(body === undefined ? {} : { body }),
      });
    },
    async close() {
      await sandbox.close();
    },
  };
}

/** A valid text send request. */
export function textTo(to: string, body = 'hello'): Record<string, unknown> {
  return { messaging_product: 'whatsapp', to, type: 'text', text: { body } };
}

/** A template send request. */
export function templateTo(
  to: string,
  name: string,
  components?: unknown[],
): Record<string, unknown> {
  return {
    messaging_product: 'whatsapp',
    to,
    type: 'template',
    template: { name, language: { code: 'en' }, ...(components ? { components } : {}) },
  };
}

/** Polls `check` until it returns true, or fails after `ms` real milliseconds. */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  ms = 5_000,
): Promise<void> {
  if (!(await waitUntil(check, ms, 10))) throw new Error('condition not met before the deadline');
}
