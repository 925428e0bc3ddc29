import { describe, expect, it } from 'vitest';
import {
  formatDeploymentIssue,
  isDeploymentFileName,
  parseDeploymentText,
} from '../../src/deploy/load-deployment-file.js';
import { looksLikeSecret } from '../../src/deploy/deployment-schema.js';

const GOOD = `kind: deployment
numbers:
  - id: sales
    bot: ./bots/sales
    workspace: acme
    apiKeyEnv: SALES_API_KEY
    callbackSecretEnv: SALES_CALLBACK_SECRET
    callbackPath: /callbacks/sales
    poll: 2s
  - id: support
    bot: ./flows/support-desk.yaml
    workspace: acme
    apiKeyEnv: SUPPORT_API_KEY
    poll: 5s
    backfill: 2h
`;

const errors = (text: string, file = 'app.deploy.yaml'): string[] => {
  const r = parseDeploymentText(text, file);
  return r.status === 'error' ? r.issues.map(formatDeploymentIssue) : [];
};

describe('parseDeploymentText', () => {
  it('should accept a complete file', () => {
    const r = parseDeploymentText(GOOD, 'app.deploy.yaml');
    expect(r.status).toBe('ok');
    if (r.status === 'ok')
      expect(r.deployment.numbers.map((n) => n.id)).toEqual(['sales', 'support']);
  });

  it('should refuse a key written where a variable name is expected, at its line', () => {
    const text = GOOD.replace(
      'apiKeyEnv: SUPPORT_API_KEY',
      'apiKeyEnv: sk_live_9f8e7d6c5b4a39281706',
    );
    const [line] = errors(text);
    expect(line).toMatch(
      /^app\.deploy\.yaml:13:16 numbers\[1\]\.apiKeyEnv: this looks like the API key itself/,
    );
    expect(line).not.toContain('9f8e7d6c5b4a');
  });

  it('should name duplicate ids and callback paths, unknown keys and a missing kind at file:line', () => {
    const dup = GOOD.replace('id: support', 'id: sales').replace(
      'poll: 5s',
      'poll: 5s\n    callbackPath: /callbacks/sales\n    callbackSecretEnv: X_SECRET\n    colour: red',
    );
    const found = errors(dup);
    expect(found).toContainEqual(
      expect.stringMatching(/:10:9 numbers\[1\]\.id: id "sales" is already used by numbers\[0\]/),
    );
    expect(found).toContainEqual(
      expect.stringMatching(
        /:15:19 numbers\[1\]\.callbackPath: callback path \/callbacks\/sales is already used/,
      ),
    );
    expect(found).toContainEqual(expect.stringMatching(/numbers\[1\]: unknown key "colour"/));
    expect(errors(GOOD.replace('kind: deployment\n', ''))[0]).toMatch(
      /^app\.deploy\.yaml:1:1 kind: a deployment file starts with `kind: deployment`/,
    );
  });

  it('should report a YAML syntax error and bad durations at file:line', () => {
    expect(errors('kind: deployment\nnumbers: [\n')[0]).toMatch(/^app\.deploy\.yaml:\d+:\d+: /);
    expect(errors(GOOD.replace('poll: 2s', 'poll: 10ms'))[0]).toMatch(
      /:9:11 numbers\[0\]\.poll: poll "10ms" must be a duration of at least 100 ms/,
    );
  });

  it('should need a way to receive messages and a secret for callbacks', () => {
    const text = GOOD.replace('    callbackSecretEnv: SALES_CALLBACK_SECRET\n', '').replace(
      '    poll: 2s\n',
      '',
    );
    expect(errors(text)).toContainEqual(
      expect.stringMatching(
        /numbers\[0\]\.callbackSecretEnv: a number with a callbackPath needs callbackSecretEnv/,
      ),
    );
  });
});

describe('looksLikeSecret', () => {
  it.each([
    ['SALES_API_KEY', false],
    ['KEY1', false],
    ['sk_live_abcdef0123456789', true],
    ['sk_sandbox_default_0123456789', true],
    ['A8F9D0E7C6B5A4938271', true],
    ['abc', false],
  ])('should say %s → %s', (value, expected) => {
    expect(looksLikeSecret(value)).toBe(expected);
  });
});

describe('isDeploymentFileName', () => {
  it('should recognise *.deploy.yaml, .yml and .json only', () => {
    expect(isDeploymentFileName('switchboard.deploy.yaml')).toBe(true);
    expect(isDeploymentFileName('a/b/prod.deploy.json')).toBe(true);
    expect(isDeploymentFileName('flows/support-desk.yaml')).toBe(false);
  });
});
