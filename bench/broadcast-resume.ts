/**
 * `npx tsx bench/broadcast-resume.ts [contacts=1000]`: the broadcast check of issue 13.
 *
 * A sandbox of the Messaging API runs in this process (real clock, the spec's budgets,
 * the approved template `welcome` en_US without parameters, responses counted by status),
 * and `switchboard broadcast` runs as a separate process against it. About half-way the
 * broadcast is killed with SIGKILL, then the same command is run again. Printed: sends per
 * contact as the API saw them, 429s, how much of the per-number budget (600/min) was used
 * in every full 60 s window while sending, and whether the report matches the API.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox, defaultSandboxConfig, parseSandboxConfig } from '../src/sandbox/index.js';
import { serveCounted } from './counted-sandbox.js';

const total = Number(process.argv[2] ?? 1000);
const parsed = parseSandboxConfig({
  ...defaultSandboxConfig,
  templates: [...defaultSandboxConfig.templates, { name: 'welcome', language: 'en_US' }],
});
if (parsed.status !== 'valid') throw new Error(parsed.message);
const sandbox = createSandbox({ config: parsed.config });
const served = await serveCounted(sandbox);
const apiKey = parsed.config.keys[0]?.key ?? '';
const dir = await mkdtemp(join(tmpdir(), 'broadcast-bench-'));
const csv = join(dir, 'contacts.csv');
const phones = Array.from({ length: total }, (_, i) => `+1555400${String(i).padStart(4, '0')}`);
await writeFile(csv, `phone\n${phones.join('\n')}\n`);
const report = join(dir, 'report.csv');
const bin = new URL('../bin/switchboard.js', import.meta.url).pathname;
const args = [
  bin,
  'broadcast',
  '--template',
  'welcome',
  '--language',
  'en_US',
  '--to',
  csv,
  '--report',
  report,
];
const env = { ...process.env, MESSAGING_API_BASE_URL: served.url, MESSAGING_API_KEY: apiKey };

let runs = 0;
function start(): { child: ChildProcess; exit: Promise<number | null> } {
  runs++;
  const log = join(dir, `run-${runs}.stderr.log`);
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d: Buffer) =>
    process.stdout.write(`  | ${d.toString().trimEnd().replace(/\n/g, '\n  | ')}\n`),
  );
  child.stderr?.on('data', (d: Buffer) => void appendFile(log, d));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exit };
}

const t0 = Date.now();
process.stdout.write(
  `broadcast of welcome (en_US) to ${total} new contacts; sandbox ${served.url}\n`,
);
const first = start();
while (sandbox.control.sent().length < total / 2) await new Promise((r) => setTimeout(r, 20));
first.child.kill('SIGKILL');
const killedAt = Date.now();
await first.exit;
const atKill = sandbox.control.sent().length;
process.stdout.write(
  `run 1 killed with SIGKILL after ${((Date.now() - t0) / 1000).toFixed(1)} s; the API had accepted ${atKill}\n`,
);
const second = start();
const code = await second.exit;
process.stdout.write(
  `run 2 exited with code ${code} after ${((Date.now() - t0) / 1000).toFixed(1)} s in all\n`,
);

const sent = sandbox.control.sent();
const perContact = new Map<string, number>();
for (const s of sent) perContact.set(s.to, (perContact.get(s.to) ?? 0) + 1);
const once = phones.filter((p) => perContact.get(p) === 1).length;
const twice = phones.filter((p) => (perContact.get(p) ?? 0) > 1).length;
const never = phones.filter((p) => perContact.get(p) === undefined).length;
const times = sent.map((s) => Date.parse(s.acceptedAt)).sort((a, b) => a - b);
const firstAt = times[0] ?? 0;
const lastAt = times.at(-1) ?? 0;
// Every full 60 s window inside the sending period, sliding by 1 s.
const shares: number[] = [];
for (let end = firstAt + 60_000; end <= lastAt; end += 1_000) {
  const n = times.filter((t) => t > end - 60_000 && t <= end).length;
  shares.push(n / 600);
}
let maxPerSecond = 0;
for (let i = 0; i < times.length; i++) {
  let j = i;
  while (j < times.length && (times[j] ?? 0) - (times[i] ?? 0) < 1_000) j++;
  maxPerSecond = Math.max(maxPerSecond, j - i);
}
const rows = (await readFile(report, 'utf8'))
  .trim()
  .split('\n')
  .slice(1)
  .map((l) => l.split(','));
const reportAccepted = rows.filter((r) => r[2] === 'accepted');
const apiIds = new Set(sent.map((s) => s.messageId));
const idsMatch =
  reportAccepted.length === sent.length && reportAccepted.every((r) => apiIds.has(r[4] ?? ''));
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const figures = {
  contacts: total,
  acceptedByApi: sent.length,
  contactsWithExactlyOneSend: once,
  contactsWithTwoOrMore: twice,
  contactsWithNone: never,
  responses429: served.statuses.get(429) ?? 0,
  responsesByStatus: Object.fromEntries(served.statuses),
  sendingSeconds: Number(((lastAt - firstAt) / 1000).toFixed(1)),
  perNumberBudgetFullWindows: shares.length,
  perNumberBudgetUsedMin: shares.length === 0 ? 'n/a' : pct(Math.min(...shares)),
  perNumberBudgetUsedMean:
    shares.length === 0 ? 'n/a' : pct(shares.reduce((a, b) => a + b, 0) / shares.length),
  perNumberBudgetUsedMax: shares.length === 0 ? 'n/a' : pct(Math.max(...shares)),
  maxSendsInAnySecond: maxPerSecond,
  reportAccepted: reportAccepted.length,
  reportRows: rows.length,
  reportMatchesApi: idsMatch,
  limited: served.limited.map((l) => ({
    route: l.route,
    sinceFirstSendMs: l.at - firstAt,
    sinceKillMs: l.at - killedAt,
  })),
  logs: dir,
};
process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
await served.close();
await sandbox.close();
const pass =
  once === total &&
  figures.responses429 === 0 &&
  idsMatch &&
  (shares.length === 0 || Math.min(...shares) >= 0.95);
process.stdout.write(pass ? 'PASS\n' : 'FAIL\n');
process.exit(pass ? 0 : 1);
