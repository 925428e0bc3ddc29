import { stat } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import { isBotDefinition, type BotDefinition } from '../bot/define-bot.js';
import { loadBot } from '../bot/load-bot.js';
import { resolveBot, type ResolvedBot } from '../bot/resolve-bot.js';
import { defaultSandboxConfig, type SandboxConfigInput } from '../sandbox/index.js';

/** The sandbox configuration, with the contact known by `name` when one is given. */
export function withContact(
  sandbox: Partial<SandboxConfigInput>,
  phone: string,
  name: string | undefined,
): Partial<SandboxConfigInput> {
  if (name === undefined) return sandbox;
  const contacts = (sandbox.contacts ?? defaultSandboxConfig.contacts).filter(
    (c) => c.phoneNumber !== phone,
  );
  return { ...sandbox, contacts: [...contacts, { phoneNumber: phone, name }] };
}

/** The compiled bot, and the directory its relative flow paths resolve against. */
export async function toResolved(
  bot: BotDefinition | ResolvedBot | string,
): Promise<{ resolved: ResolvedBot; dir: string }> {
  if (typeof bot === 'string') {
    const r = await loadBot(bot);
    if (r.status === 'error') throw new Error(r.message);
    return { resolved: r.bot, dir: await directoryOf(bot) };
  }
  if (isBotDefinition(bot)) {
    const r = await resolveBot(bot);
    if (r.status === 'error') throw new Error(r.message);
    return { resolved: r.bot, dir: bot.dir ?? process.cwd() };
  }
  return { resolved: bot, dir: process.cwd() };
}

/** A bot path's directory: itself for a directory, else the file's. */
async function directoryOf(path: string): Promise<string> {
  const absolute = resolve(path);
  if (extname(absolute) !== '') return dirname(absolute);
  const s = await stat(absolute).catch(() => undefined);
  return s?.isDirectory() === true ? absolute : dirname(absolute);
}
