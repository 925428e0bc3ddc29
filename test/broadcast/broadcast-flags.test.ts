import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import {
  parseBroadcastFlags,
  registerBroadcastCommand,
  type BroadcastFlags,
} from '../../src/cli/broadcast-command.js';

const env = {
  MESSAGING_API_BASE_URL: 'http://127.0.0.1:9',
  MESSAGING_API_KEY: 'sk_test_key_0123456789',
};

/** The flags commander hands the command's action for `args`. */
async function flagsOf(args: readonly string[]): Promise<BroadcastFlags> {
  const program = new Command().exitOverride();
  let seen: BroadcastFlags | undefined;
  registerBroadcastCommand(program).action((flags: BroadcastFlags) => {
    seen = flags;
  });
  await program.parseAsync(['broadcast', ...args], { from: 'user' });
  if (seen === undefined) throw new Error('the action did not run');
  return seen;
}

const base = ['--template', 'welcome', '--language', 'en_US', '--to', 'contacts.csv'];

describe('switchboard broadcast flags', () => {
  it('should never resend by default and opt in with --resend-after-absence', async () => {
    const plain = parseBroadcastFlags(await flagsOf(base), env);
    expect(plain).not.toHaveProperty('resendAfterAbsence');
    const opted = parseBroadcastFlags(await flagsOf([...base, '--resend-after-absence']), env);
    expect(opted.resendAfterAbsence).toBe(true);
  });
});
