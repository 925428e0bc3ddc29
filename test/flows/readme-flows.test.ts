import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runFlowCommand } from './flow-cli.js';

/** The complete flow files the README shows (a top-level `id:` and `states:`). */
function readmeFlows(): { id: string; text: string }[] {
  const readme = readFileSync('README.md', 'utf8');
  const flows: { id: string; text: string }[] = [];
  for (const [, text = ''] of readme.matchAll(/```yaml\n([\s\S]*?)```/g)) {
    const id = /^id: ([a-z0-9-]+)/m.exec(text)?.[1];
    if (id !== undefined && /^states:/m.test(text)) flows.push({ id, text });
  }
  return flows;
}

describe('the flows of the README', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-readme-flows-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should pass switchboard validate as printed, with no error and no warning', async () => {
    const flows = readmeFlows();
    expect(flows.map((f) => f.id)).toEqual(
      expect.arrayContaining(['greeter', 'support-desk', 'collect-address']),
    );
    const files = flows.map(({ id, text }) => {
      const file = join(dir, `${id}.yaml`);
      writeFileSync(file, text);
      return file;
    });
    const { out, err, code } = await runFlowCommand('validate', ...files);
    expect(out + err).toBe(`${files.length} files checked: 0 errors, 0 warnings\n`);
    expect(code ?? 0).toBe(0);
  });
});
