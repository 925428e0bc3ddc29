import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A small flow with a menu, a question and two endings; `done` says `doneText`. */
export function reloadFlow(options: { doneText?: string; askState?: string } = {}): string {
  const ask = options.askState ?? 'apples';
  return `id: reload-demo
version: 1
start: welcome
states:
  welcome:
    menu:
      body: Apples or bananas?
      options:
        - { id: a, title: Apples, goto: ${ask} }
        - { id: b, title: Bananas, goto: bananas }
  ${ask}:
    ask: { prompt: How many apples?, var: count, goto: done }
  bananas:
    say: Bananas are great.
    final: true
  done:
    say: ${JSON.stringify(options.doneText ?? 'You want {{count}} apples.')}
    final: true
`;
}

/** A flow file whose `welcome` menu points to a state that does not exist (line 10). */
export const BROKEN_FLOW = reloadFlow().replace('goto: bananas }', 'goto: banana }');

/** A temporary folder with `flow.yaml`; `write` replaces the file, `remove` deletes the folder. */
export function tempFlow(text: string): {
  file: string;
  write(text: string): void;
  remove(): void;
} {
  const dir = mkdtempSync(join(tmpdir(), 'studio-reload-'));
  const file = join(dir, 'flow.yaml');
  writeFileSync(file, text);
  return {
    file,
    write: (next) => writeFileSync(file, next),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
