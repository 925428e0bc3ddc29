import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runFlowCommand } from './flow-cli.js';

async function validate(...args: string[]): Promise<{ out: string; code: number | undefined }> {
  const r = await runFlowCommand('validate', ...args);
  return { out: r.out + r.err, code: r.code };
}

const DIR = 'test/flows/broken';

/**
 * Every broken file, the line:column of its first error and the rule (or a piece of the
 * message): the position is where the mistake is, never the parent or 1:1.
 */
const EXPECTED: Record<string, readonly [string, string]> = {
  '01-promt.yaml': ['7:7', 'unknown key "promt" (did you mean "prompt"?)'],
  '02-otherwize.yaml': ['7:5', 'unknown key "otherwize" (did you mean "otherwise"?)'],
  '03-trigger.yaml': ['4:1', 'unknown key "trigger" (did you mean "triggers"?)'],
  '04-missing-start.yaml': ['3:1', 'missing required key "start"'],
  '05-indentation.yaml': ['7:1', '[syntax]'],
  '06-unreachable.yaml': ['6:3', '[unreachable-state]'],
  '07-handoff-goto.yaml': ['8:7', 'it takes resume: <state>'],
  '08-window-in-ask.yaml': ['10:7', 'a window rule is not allowed in ask'],
  '09-placeholder-space.yaml': ['7:5', '"{{first name}}" is not a placeholder'],
  '10-placeholder-single.yaml': ['7:5', '"{name}" uses single braces: write {{name}}'],
  '11-trailing-comma.json': ['6:40', 'trailing comma'],
  '12-timeout-goto.yaml': ['8:5', 'timeout never fires'],
  '13-zero-after.yaml': ['7:16', 'must be longer than zero'],
  '14-call-no-onerror.yaml': ['6:5', '[missing-error-target]'],
  '15-unknown-var-branch.yaml': ['7:9', '"size" is not a declared variable'],
  '16-type-mismatch.yaml': ['9:9', 'compares a number with a string [type-mismatch]'],
  '17-dead-branch.yaml': ['9:9', '[dead-branch]'],
  '18-branch-no-default.yaml': ['8:9', '[branch-default]'],
  '19-bad-condition.yaml': ['8:9', '"=" is not an operator: write == to compare'],
  '20-contact-undeclared.yaml': ['6:5', 'contact.nickname is not a contact memory field'],
  '21-missing-translation.yaml': ['12:9', 'no fr translation of "See you"'],
  '22-translation-too-long.yaml': ['11:44', 'in es: Button title'],
  '23-subflow-missing.yaml': ['6:16', 'no flow "no-such-flow"'],
  '24-subflow-cycle-a.yaml': ['6:16', 'cycle-a → cycle-b → cycle-a'],
  '25-variable-dash.yaml': ['5:3', 'vars.first-name'],
  '26-delay-in-prompt.yaml': ['8:11', '[delay-place]'],
  '27-two-kinds.yaml': ['7:5', 'at most one of menu, ask'],
  '28-migrate-unknown.yaml': ['5:3', 'unknown state "gone"'],
  '29-unknown-json-key.json': ['6:25', 'unknown key "fnial" (did you mean "final"?)'],
  '30-subflow-bad-input.yaml': ['6:5', 'flow "helper" needs input "who"'],
  '31-dup-state-key.yaml': ['6:3', 'Map keys must be unique'],
  '32-slot-conflict.yaml': ['12:7', 'values only here: medium; values only there: large'],
};

describe('switchboard validate on broken flow files', () => {
  it('should cover every numbered file of the corpus (at least 25)', () => {
    const files = readdirSync(DIR).filter((f) => /^\d\d-/.test(f));
    expect(files.sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(files.length).toBeGreaterThanOrEqual(25);
  });

  for (const [file, [where, what]] of Object.entries(EXPECTED)) {
    it(`should exit 1 on ${file} at ${where}`, async () => {
      const r = await validate(`${DIR}/${file}`, '--handlers', 'lookup');
      expect(r.code).toBe(1);
      const first = r.out.split('\n').find((l) => l.includes(' error '));
      expect(first).toContain(`${DIR}/${file}:${where} error`);
      expect(first).toContain(what);
    });
  }

  it('should pass the valid edge cases (keywords as ids, every construct, JSON, a sub-flow, a slot shared by YAML alias)', async () => {
    const files = readdirSync('test/flows/valid').map((f) => `test/flows/valid/${f}`);
    const r = await validate(...files);
    expect(r.out).toBe(`${files.length} files checked: 0 errors, 0 warnings\n`);
    expect(r.code).toBe(0);
  });

  it('should exit 1 from the real CLI process at the exact position', () => {
    const r = spawnSync(
      process.execPath,
      ['bin/switchboard.js', 'validate', `${DIR}/01-promt.yaml`],
      {
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`${DIR}/01-promt.yaml:7:7 error states.s.ask.promt`);
  });
});
