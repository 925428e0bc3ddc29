import { describe, expect, it } from 'vitest';
import { classify, commandLines } from './block-kinds.js';
import { parseBlocks } from './doc-blocks.js';

const page = (text: string) => parseBlocks('docs/x.md', text);
const kindOf = (text: string) => {
  const [block] = page(text).blocks;
  if (block === undefined) throw new Error('no block');
  return classify(block);
};

describe('classify', () => {
  it('should refuse a shell block with no check and no marker', () => {
    expect(kindOf('Text\n\n```sh\ncurl http://x\n```\n')).toMatchObject({ kind: 'unchecked' });
  });

  it('should refuse a not-run marker without a reason', () => {
    expect(kindOf('<!-- not-run: -->\n\n```sh\ncurl http://x\n```\n')).toMatchObject({
      kind: 'unchecked',
    });
  });

  it('should accept a not-run marker with its reason, blank lines between', () => {
    expect(kindOf('<!-- not-run: needs a real API key -->\n\n```\n$ x\n```\n')).toEqual({
      kind: 'not-run',
      reason: 'needs a real API key',
    });
  });

  it('should run a shell block made only of switchboard commands', () => {
    expect(kindOf('```sh\nnpx switchboard --help\nswitchboard schema\n```\n')).toEqual({
      kind: 'cli',
    });
    expect(kindOf('```sh\nnpx switchboard --help\nrm -rf x\n```\n').kind).toBe('unchecked');
  });

  it('should take YAML with id and states as a flow, and refuse a fragment', () => {
    expect(kindOf('```yaml\nid: a\nstates: {}\n```\n')).toEqual({ kind: 'flow', format: 'yaml' });
    expect(kindOf('```yaml\nwelcome:\n  say: hi\n```\n').kind).toBe('unchecked');
  });

  it('should validate JSON with numbers or keys as a sandbox configuration', () => {
    expect(kindOf('```json\n{ "numbers": [] }\n```\n')).toEqual({ kind: 'sandbox-config' });
    expect(kindOf('```json\n{ "a": 1 }\n```\n')).toEqual({ kind: 'json' });
    expect(kindOf('```json\n{ "a": 1, }\n```\n').kind).toBe('unchecked');
  });
});

describe('parseBlocks', () => {
  it('should report a marker that precedes no block', () => {
    const r = page('<!-- not-run: a reason long enough -->\nSome text.\n\n```ts\nx;\n```\n');
    expect(r.dangling).toEqual([
      { file: 'docs/x.md', line: 1, text: 'not-run: a reason long enough' },
    ]);
    expect(r.blocks[0]).toMatchObject({ line: 4, lang: 'ts', code: 'x;\n', markers: [] });
  });

  it('should keep the section heading and the fence line of each block', () => {
    const r = page('# T\n\n## A bot\n\n```sh\nnpm test\n```\n');
    expect(r.blocks[0]).toMatchObject({ section: 'A bot', line: 5 });
  });
});

describe('commandLines', () => {
  it('should join continuations and drop comments and blank lines', () => {
    expect(commandLines('# c\nA=1 \\\n  switchboard run x\n\nnpm test # t\n')).toEqual([
      'A=1 switchboard run x',
      'npm test # t',
    ]);
  });
});
