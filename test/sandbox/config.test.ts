import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  defaultSandboxConfig,
  loadSandboxConfig,
  parseSandboxConfig,
} from '../../src/sandbox/index.js';

describe('sandbox configuration', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sandbox-config-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('should have a default with a connected number, a key with all scopes, contacts and templates', () => {
    expect(defaultSandboxConfig.numbers[0]).toMatchObject({
      handling: 'developer_api',
      connected: true,
    });
    expect(defaultSandboxConfig.keys[0]!.scopes).toEqual([
      'messages:send',
      'messages:read',
      'media:read',
    ]);
    expect(defaultSandboxConfig.contacts.length).toBeGreaterThan(1);
    expect(defaultSandboxConfig.templates.some((t) => t.status === 'approved')).toBe(true);
    expect(defaultSandboxConfig.templates.some((t) => t.status === 'pending')).toBe(true);
  });

  it('should load a valid file and apply defaults', async () => {
    const file = join(dir, 'ok.json');
    await writeFile(
      file,
      JSON.stringify({
        numbers: [{ id: 'n1', phoneNumber: '+15550001111' }],
        keys: [{ key: 'sk_file_key_1', number: 'n1' }],
      }),
    );
    const result = await loadSandboxConfig(file);
    expect(result.status).toBe('valid');
    if (result.status === 'valid') expect(result.config.delivery.sentAfterMs).toBe(1_000);
  });

  it('should name the file and the field path of an invalid value', async () => {
    const file = join(dir, 'bad.json');
    await writeFile(
      file,
      JSON.stringify({
        numbers: [{ id: 'n1', phoneNumber: '555' }],
        keys: [{ key: 'sk_file_key_1', number: 'n1', scopes: ['admin'] }],
      }),
    );
    const result = await loadSandboxConfig(file);
    expect(result.status).toBe('invalid');
    if (result.status === 'invalid') {
      expect(result.message).toContain(file);
      expect(result.message).toContain('numbers[0].phoneNumber');
      expect(result.message).toContain('keys[0].scopes[0]');
    }
  });

  it('should reject unknown fields, broken JSON, a missing file and keys bound to unknown numbers', async () => {
    const bad = join(dir, 'broken.json');
    await writeFile(bad, '{ nope');
    expect((await loadSandboxConfig(bad)).status).toBe('invalid');
    expect((await loadSandboxConfig(join(dir, 'missing.json'))).status).toBe('invalid');
    const unknown = parseSandboxConfig({ ...defaultSandboxConfig, extra: true });
    expect(unknown.status === 'invalid' && unknown.message.includes('extra')).toBe(true);
    const orphan = parseSandboxConfig({
      numbers: [{ id: 'n1', phoneNumber: '+15550001111' }],
      keys: [{ key: 'sk_orphan_key', number: 'n2' }],
    });
    expect(orphan.status === 'invalid' && orphan.message.includes('keys[0].number')).toBe(true);
  });
});
