import { z } from 'zod';
import type { RunnableFlow } from '../flows/contract.js';
import { BotConfigError, type BotOptions } from './types.js';

/** The flows of a checked configuration. */
export interface CheckedFlows {
  readonly flows: ReadonlyMap<string, RunnableFlow>;
  readonly entry: RunnableFlow;
}

/**
 * Checks a bot configuration and says how to fix what is wrong: flows present and
 * well-formed, the entry flow known, every handler a flow may call provided, an API key
 * (or a client), a callback secret when callbacks are configured.
 */
export function checkBotOptions(options: BotOptions): CheckedFlows {
  const problems: string[] = [];
  const flows = new Map<string, RunnableFlow>();
  if (options.flows.length === 0)
    problems.push('no flows: pass at least one compiled flow in `flows`');
  for (const [i, flow] of options.flows.entries()) {
    if (!isCompiled(flow)) {
      problems.push(
        `flows[${i}] is ${describeSource(flow)}, not a compiled flow: createBot and bot.reloadFlows take compiled flows (compileFlow, or loadBot/resolveBot for files); to reload from files or definitions, await reloadFlowSources(bot, flows) (chat.bot.reloadFlows in the test kit)`,
      );
      continue;
    }
    if (typeof flow.id !== 'string' || flow.id === '') problems.push(`flows[${i}] has no id`);
    else if (flows.has(flow.id)) problems.push(`flows[${i}]: duplicate flow id "${flow.id}"`);
    if (!Number.isInteger(flow.version))
      problems.push(`flow "${flow.id}": version must be an integer`);
    if (typeof flow.machine !== 'object' || flow.machine === null || !('config' in flow.machine)) {
      problems.push(
        `flow "${flow.id}": machine is not an XState machine (use compileFlow() or setup().createMachine())`,
      );
    }
    flows.set(flow.id, flow);
    const handlers: unknown = flow.handlers;
    if (!Array.isArray(handlers)) {
      problems.push(`flow "${flow.id}": handlers must list the handler names it calls`);
      continue;
    }
    for (const name of flow.handlers) {
      if (options.handlers?.[name] === undefined) {
        problems.push(
          `flow "${flow.id}" calls handler "${name}" but no handler of that name was given in \`handlers\``,
        );
      }
    }
  }
  for (const flow of options.flows.filter(isCompiled)) {
    for (const sub of flow.subflows ?? []) {
      if (!flows.has(sub))
        problems.push(
          `flow "${flow.id}" runs sub-flow "${sub}", which is not among the flows (${[...flows.keys()].join(', ')}): add it to \`flows\``,
        );
    }
  }
  const entry =
    options.entry === undefined ? options.flows.find(isCompiled) : flows.get(options.entry);
  if (options.entry !== undefined && entry === undefined) {
    problems.push(
      `entry flow "${options.entry}" is not among the flows (${[...flows.keys()].join(', ')})`,
    );
  }
  if ('apiKey' in options.api) {
    if (typeof options.api.apiKey !== 'string' || options.api.apiKey.trim() === '') {
      problems.push(
        'api.apiKey is missing: set it (e.g. from SWITCHBOARD_API_KEY) or pass api.client',
      );
    }
    if (typeof options.api.baseUrl !== 'string' || !/^https?:\/\//.test(options.api.baseUrl)) {
      problems.push(`api.baseUrl must be an http(s) URL`);
    }
  }
  if (
    options.callbacks !== undefined &&
    options.callbacks.secret === '' &&
    options.callbacks.verifier === undefined
  ) {
    problems.push('callbacks.secret is empty: set the signing secret shared with the API');
  }
  const deadline = options.callbacks?.storeDeadlineMs;
  if (deadline !== undefined && (!Number.isFinite(deadline) || deadline <= 0))
    problems.push(
      `callbacks.storeDeadlineMs must be a number of ms > 0, e.g. 1500 (got ${String(deadline)})`,
    );
  for (const name of ['concurrency', 'burstConcurrency'] as const) {
    const value = options[name];
    if (value !== undefined && (!Number.isInteger(value) || value < 1))
      problems.push(`${name} must be a whole number ≥ 1 (got ${String(value)})`);
  }
  problems.push(...checkSendOptions(options.sends));
  if (problems.length > 0 || entry === undefined) {
    throw new BotConfigError(`invalid bot configuration:\n- ${problems.join('\n- ')}`);
  }
  return { flows, entry };
}

const SendOptionsShape = z.strictObject({ resendAfterAbsence: z.boolean().optional() });

/** Problems of `sends`, each naming its field path (`sends.resendAfterAbsence`). */
export function checkSendOptions(sends: unknown, where = 'sends'): string[] {
  if (sends === undefined) return [];
  const parsed = SendOptionsShape.safeParse(sends);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => {
    const path = [where, ...issue.path.map(String)].join('.');
    const got: unknown =
      issue.path.length === 0 ? sends : Reflect.get(Object(sends), String(issue.path[0]));
    return issue.code === 'unrecognized_keys'
      ? `${path}: unknown option ${issue.keys.map((k) => `"${k}"`).join(', ')} (known: resendAfterAbsence)`
      : `${path} must be ${issue.path.length === 0 ? 'an object like { resendAfterAbsence: true }' : 'true or false'} (got ${JSON.stringify(got) ?? typeof got})`;
  });
}

/** A compiled flow (or hand-written machine), not a path, URL or definition given by mistake. */
function isCompiled(flow: RunnableFlow): boolean {
  const value: unknown = flow;
  return (
    typeof value === 'object' && value !== null && !(value instanceof URL) && 'machine' in value
  );
}

/** What a non-compiled flow source looks like, for the error message. */
function describeSource(flow: unknown): string {
  if (typeof flow === 'string') return `the path "${flow}"`;
  if (flow instanceof URL) return `the URL ${flow.href}`;
  if (typeof flow === 'object' && flow !== null && 'states' in flow)
    return `a flow definition ("${String(Reflect.get(flow, 'id'))}")`;
  return `a ${flow === null ? 'null' : typeof flow}`;
}
