import { describe, expect, it } from 'vitest';
import {
  defineFlow,
  formatDiagnostic,
  lintFlow,
  loadFlowFile,
  parseFlowText,
} from '../../src/flows/index.js';

async function lintFile(file: string, handlers?: string[]): Promise<string[]> {
  const r = await loadFlowFile(file);
  if (r.status === 'error') return r.diagnostics.map(formatDiagnostic);
  return lintFlow(r.flow, {
    file,
    positions: r.source.positions,
    ...(handlers === undefined ? {} : { handlers }),
  }).map(formatDiagnostic);
}

const HANDLERS = ['notifyAgents', 'findSlots', 'bookSlot', 'lookupOrder', 'reportUndeliverable'];

describe('lintFlow', () => {
  it.each(['flows/support-desk.yaml', 'flows/appointment-booking.yaml', 'flows/order-status.yaml'])(
    'should find nothing in %s',
    async (file) => {
      expect(await lintFile(file, HANDLERS)).toEqual([]);
    },
  );

  it('should report every broken construct with file:line:column and path', async () => {
    const f = 'test/fixtures/flows/broken-lint.yaml';
    expect(await lintFile(f, ['lookupOrder'])).toEqual([
      `${f}:7:5 error states.welcome.say: {{nickname}}: "nickname" is not a declared variable (declare it in vars, ask.var, set, call.sets, menu.onSelect.var, subflow.output or inputs) [undeclared-var]`,
      `${f}:15:11 error states.welcome.menu.options[1].title: Button title "Talk to a person, now" is 21 characters; the limit is 20 (spec 4.5.2) [content-limit]`,
      `${f}:16:11 error states.welcome.menu.options[1].goto: unknown state "agent" [unknown-target]`,
      `${f}:17:11 error states.welcome.menu.options[2].id: option id "faq" is already used by options[0] [duplicate-option]`,
      `${f}:21:5 error states.faq.call: handler errors and unknown outcomes of "lookupFaq" have nowhere to go: add call.onError or a flow-level onError [missing-error-target]`,
      `${f}:22:7 error states.faq.call.handler: handler "lookupFaq" is not provided by the bot (known: lookupOrder) [unknown-handler]`,
      `${f}:25:3 error states.stuck: state "stuck" cannot be reached from "welcome" (no goto, option, outcome or trigger leads to it; remove it or link it) [unreachable-state]`,
      `${f}:25:3 error states.stuck: state "stuck" is not final and has no way out (add a menu, ask, call, handoff, goto, timeout or final: true) [stuck-state]`,
      `${f}:27:3 error states.loopA: state "loopA" cannot be reached from "welcome" (no goto, option, outcome or trigger leads to it; remove it or link it) [unreachable-state]`,
      `${f}:29:5 error states.loopA.goto: goto never waits for input: loopA → loopB → loopA [goto-loop]`,
      `${f}:30:3 error states.loopB: state "loopB" cannot be reached from "welcome" (no goto, option, outcome or trigger leads to it; remove it or link it) [unreachable-state]`,
      `${f}:32:5 error states.loopB.goto: goto never waits for input: loopB → loopA → loopB [goto-loop]`,
    ]);
  });

  it('should report schema errors with positions', async () => {
    const f = 'test/fixtures/flows/broken-schema.yaml';
    expect(await lintFile(f)).toEqual([
      `${f}:1:1 error id: must be kebab-case (a-z, 0-9, "-") [schema]`,
      `${f}:2:1 error version: Too small: expected number to be >=1 [schema]`,
      `${f}:7:5 error states.welcome.colour: unknown key "colour"; allowed here: description, set, say, menu, ask, call, subflow, branch, debounce, handoff, otherwise, timeout, goto, remind, understand, onSendFailed, final [schema]`,
      `${f}:9:7 error states.welcome.menu.type: Invalid option: expected one of "buttons"|"list" [schema]`,
    ]);
  });

  it('should report YAML syntax errors with a position', () => {
    // Inline rather than a fixture file: prettier cannot format a broken YAML file.
    const r = parseFlowText('id: broken\nstates:\n  welcome:\n    say: [unclosed\n', 'broken.yaml');
    expect(r.status).toBe('error');
    const [d] = r.status === 'error' ? r.diagnostics.map(formatDiagnostic) : [];
    expect(d).toMatch(/^broken\.yaml:5:1 error \(root\): .* \[syntax\]$/);
  });

  it('should read JSON flow files too', async () => {
    const r = await loadFlowFile('test/fixtures/flows/hello.json');
    expect(r.status).toBe('ok');
  });

  it('should check content with placeholders at the minimum and warn near the limit', () => {
    const flow = defineFlow({
      id: 'limits',
      version: 1,
      start: 'a',
      vars: { who: 'x' },
      states: {
        a: {
          menu: {
            body: 'b',
            options: [
              { id: 'one', title: 'Hello there, dear {{who}}!!', goto: 'b' },
              { id: 'two', title: 'Hi {{who}}', goto: 'b' },
            ],
          },
        },
        b: { say: { image: { link: 'http://example.com/a.png' } }, final: true },
      },
    });
    const found = lintFlow(flow).map((d) => `${d.severity} ${d.path} [${d.rule}]`);
    expect(found).toEqual([
      'error states.a.menu.options[0].title [content-limit]',
      'error states.b.say.image.link [content-limit]',
    ]);
    const near = defineFlow({
      ...flow,
      states: {
        ...flow.states,
        a: {
          menu: { body: 'b', options: [{ id: 'one', title: 'Hello dear {{who}}', goto: 'b' }] },
        },
        b: { final: true },
      },
    });
    expect(lintFlow(near).map((d) => `${d.severity} ${d.path} [${d.rule}]`)).toEqual([
      'warning states.a.menu.options[0].title [content-near-limit]',
    ]);
  });
});
