import { describe, expect, it } from 'vitest';
import { formatDiagnostic, lintFlow, loadFlowFile, parseFlowText } from '../../src/flows/index.js';

async function lintFile(file: string): Promise<string[]> {
  const loaded = await loadFlowFile(file);
  if (loaded.status === 'error') return loaded.diagnostics.map(formatDiagnostic);
  return lintFlow(loaded.flow, { file, positions: loaded.source.positions }).map(formatDiagnostic);
}

describe('lintFlow: out-of-scope examples', () => {
  it('should report an intent example given as out of scope, an unknown locale and a locale without any, at file:line', async () => {
    const f = 'test/fixtures/flows/out-of-scope.yaml';
    expect(await lintFile(f)).toEqual([
      `${f}:12:3 warning understand.outOfScope: no es out-of-scope examples while en, fr has some: es near misses are taken as before; add understand.outOfScope.es [missing-out-of-scope]`,
      `${f}:15:9 error understand.outOfScope.en[1]: "I want to Order a book!" is also an example of intent "order" (intents.order.examples.en[0]); a message cannot be both in and out of scope [out-of-scope-example]`,
      `${f}:16:5 warning understand.outOfScope.fr: "fr" is not among the flow's locales (en, es) [unknown-locale]`,
    ]);
  });

  it('should pass the heldout4 copies with out-of-scope examples clean of out-of-scope rules', async () => {
    for (const d of ['hotel', 'furniture']) {
      const found = await lintFile(`test/fixtures/understand/heldout4/${d}/${d}.oos.yaml`);
      expect(found.filter((line) => line.includes('outOfScope'))).toEqual([]);
    }
  });

  it('should refuse a flat list: out-of-scope examples are keyed by locale, like an intent', () => {
    const parsed = parseFlowText(
      [
        'id: flat',
        'version: 1',
        'start: a',
        'understand:',
        '  outOfScope:',
        '    - order me a pizza',
        'states:',
        '  a:',
        '    say: Hi',
        '    final: true',
      ].join('\n'),
      'flat.yaml',
    );
    expect(parsed.status).toBe('error');
    if (parsed.status !== 'error') return;
    expect(parsed.diagnostics.map(formatDiagnostic).join('\n')).toContain('understand.outOfScope');
  });
});
