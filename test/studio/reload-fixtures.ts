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

/** A flow whose first state sends one message of every kind the phone view draws. */
export const SHOWCASE_FLOW = `id: showcase
version: 1
start: show
states:
  show:
    say:
      - template:
          name: appointment_reminder
          language: en
          components:
            - type: body
              parameters:
                - { type: text, text: Ada }
                - { type: date_time, date_time: { fallback_value: Tuesday 10:00 } }
      - image: { link: 'https://store.example.com/p.png', caption: Your new lamp }
      - document: { link: 'https://store.example.com/invoice.pdf', filename: invoice-42.pdf }
      - location: { latitude: 52.3731, longitude: 4.8922, name: Pickup point, address: Damrak 1 }
      - contact: { name: { formatted_name: Lamp Store }, phones: [{ phone: '+31201234567' }] }
    goto: pick
  pick:
    menu:
      type: list
      body: When should we deliver?
      button: Pick a day
      section: This week
      options:
        - { id: mon, title: Monday, description: 9:00 to 12:00, goto: thanks }
        - { id: tue, title: Tuesday, description: 13:00 to 17:00, goto: thanks }
  thanks:
    say: Thanks, see you then!
    final: true
`;
