import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { registerFlowCommands } from '../../src/cli/flow-commands.js';
import { parseSandboxConfig } from '../../src/sandbox/config.js';
import {
  formatDeploymentIssue,
  parseDeploymentText,
} from '../../src/deploy/load-deployment-file.js';
import { classify, MARKER_KINDS, summarise, type BlockCheck } from './block-kinds.js';
import { compileBlocks } from './compile-blocks.js';
import { isDistFresh } from './dist-fresh.js';
import { readDocBlocks, where, type DocBlock } from './doc-blocks.js';

const root = process.cwd();
const { blocks, dangling } = readDocBlocks(root);
const work = mkdtempSync(join(root, '.docs-blocks-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function blocksOf<K extends BlockCheck['kind']>(kind: K): DocBlock[] {
  return blocks.filter((b) => classify(b).kind === kind);
}

describe('the code blocks of README.md and docs/', () => {
  it('should give every block a check or a marker with its reason', () => {
    const unknownMarkers = blocks.flatMap((b) =>
      b.markers
        .filter((m) => !(MARKER_KINDS as readonly string[]).includes(m.kind))
        .map((m) => `${b.file}:${m.line}: unknown marker "${m.kind}"`),
    );
    const unchecked = blocks.flatMap((b) => {
      const c = classify(b);
      return c.kind === 'unchecked' ? [`${where(b)}: ${c.problem}`] : [];
    });
    const lost = dangling.map(
      (d) => `${d.file}:${d.line}: marker before no code block (${d.text})`,
    );
    expect([...unknownMarkers, ...unchecked, ...lost]).toEqual([]);
    const { counts, reasons } = summarise(blocks);
    console.log(
      `${blocks.length} code blocks: ${JSON.stringify(counts)}\n` +
        `${reasons.length} not-run markers:\n  ${reasons.join('\n  ')}`,
    );
    expect(blocks.length).toBeGreaterThan(40);
  });

  it('should validate every flow file block, all together, with no error and no warning', async () => {
    const flows = [...blocksOf('flow')];
    mkdirSync(join(work, 'flows'));
    const files = flows.map((b) => {
      const ext = b.lang === 'json' ? 'json' : 'yaml';
      const file = join(work, 'flows', `${b.file.replace(/[/.]/g, '_')}-L${b.line}.${ext}`);
      writeFileSync(file, b.code);
      return file;
    });
    const ids = flows.map((b) => /^id: *([a-z0-9-]+)|"id": *"([a-z0-9-]+)"/m.exec(b.code)?.[1]);
    const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(repeated, 'flow ids must be unique across the docs (sub-flows are found by id)').toEqual(
      [],
    );
    let out = '';
    const program = registerFlowCommands(new Command('switchboard').exitOverride(), {
      out: (t) => (out += t),
      err: (t) => (out += t),
      setExitCode: () => undefined,
    });
    await program.parseAsync(['node', 'switchboard', 'validate', ...files]);
    // Diagnostics name the block's file: <page>-L<fence line>.yaml:<line in block>.
    expect(out.replaceAll(`${work}/flows/`, '')).toBe(
      `${files.length} files checked: 0 errors, 0 warnings\n`,
    );
  });

  it('should compile every TypeScript block in one program', { timeout: 240_000 }, () => {
    const ts = blocksOf('typescript');
    expect(ts.length).toBeGreaterThan(5);
    const errors = compileBlocks(
      root,
      join(work, 'ts'),
      ts,
      isDistFresh(root) ? 'dist' : 'sources',
    );
    expect(errors.map((e) => `${e.at}: ${e.message}`)).toEqual([]);
  });

  it('should validate every deployment-file block (errors at file:line)', () => {
    for (const b of blocksOf('deployment')) {
      const r = parseDeploymentText(b.code, where(b));
      expect(r.status === 'error' ? r.issues.map(formatDeploymentIssue) : []).toEqual([]);
    }
    expect(blocksOf('deployment').length).toBeGreaterThan(0);
  });

  it('should parse every JSON block and validate sandbox configurations', () => {
    for (const b of blocksOf('sandbox-config')) {
      const r = parseSandboxConfig(JSON.parse(b.code), where(b));
      expect(r.status === 'invalid' ? r.message : 'valid').toBe('valid');
    }
    expect(blocksOf('sandbox-config').length + blocksOf('json').length).toBeGreaterThan(0);
  });

  it('should mark for .ci/pack-check exactly the sh blocks of the README tutorial it extracts', () => {
    const script = readFileSync(join(root, '.ci/pack-check'), 'utf8');
    expect(script).toContain("awk '/^## A bot in five minutes$/");
    const tutorial = blocks.filter(
      (b) => b.file === 'README.md' && b.section === 'A bot in five minutes' && b.lang === 'sh',
    );
    expect(tutorial.length).toBeGreaterThanOrEqual(5);
    expect(blocksOf('pack-check').map(where)).toEqual(tutorial.map(where));
  });
});
