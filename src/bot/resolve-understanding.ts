import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve as resolvePath } from 'node:path';
import type { EngineUnderstanding } from '../engine/understand-inbound.js';
import type { RunnableFlow } from '../flows/contract.js';
import { DEFAULT_THRESHOLD } from '../flows/understand-runtime.js';
import { defaultUnderstander } from '../understand/default-understander.js';
import {
  UnderstandSettingsSchema,
  type KnowledgeFile,
  type UnderstanderFactory,
  type UnderstanderSetup,
} from '../understand/setup.js';
import type { IntentSpec, Understander } from '../understand/types.js';

/** Outcome of {@link resolveUnderstanding}. */
export type UnderstandingResult =
  | { readonly status: 'ok'; readonly understanding: EngineUnderstanding | undefined }
  | { readonly status: 'error'; readonly message: string };

/** What a bot declares about understanding (`defineBot` options). */
export interface BotUnderstandingInput {
  readonly understander?: Understander | UnderstanderFactory | undefined;
  readonly understand?: unknown;
}

/**
 * Builds a bot's understanding: its settings checked, its knowledge files read (relative
 * to `dir`), its understander made (the bot's own, or the default: see
 * `defaultUnderstander`). Undefined when no flow uses understanding and no understander
 * was given: such a bot never understands text.
 */
export async function resolveUnderstanding(
  input: BotUnderstandingInput,
  flows: readonly RunnableFlow[],
  dir: string,
): Promise<UnderstandingResult> {
  const settings = UnderstandSettingsSchema.safeParse(input.understand ?? {});
  if (!settings.success) {
    const issue = settings.error.issues[0];
    return {
      status: 'error',
      message: `defineBot understand.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`,
    };
  }
  const s = settings.data;
  const uses = flows.some((f) => f.intents !== undefined);
  if (!uses && input.understander === undefined) return { status: 'ok', understanding: undefined };
  const knowledge: KnowledgeFile[] = [];
  for (const file of s.knowledge ?? []) {
    const path = isAbsolute(file) ? file : resolvePath(dir, file);
    try {
      knowledge.push({ file, text: await readFile(path, 'utf8') });
    } catch (error) {
      return {
        status: 'error',
        message: `defineBot understand.knowledge: cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }
  const setup: UnderstanderSetup = {
    intents: intentsOf(flows),
    knowledge,
    timezone: s.timezone ?? 'UTC',
  };
  let made: { understander: Understander; fallback?: Understander } | undefined;
  try {
    const given = input.understander;
    if (given === undefined) made = await defaultUnderstander(setup, { model: s.model !== false });
    else made = { understander: typeof given === 'function' ? await given(setup) : given };
  } catch (error) {
    return {
      status: 'error',
      message: `the understander could not be built: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (made === undefined) return { status: 'ok', understanding: undefined };
  return {
    status: 'ok',
    understanding: {
      understander: made.understander,
      ...(made.fallback === undefined ? {} : { fallback: made.fallback }),
      threshold: s.threshold ?? DEFAULT_THRESHOLD,
      timezone: setup.timezone,
      knowledge: knowledge.length > 0,
      ...(s.timeoutMs === undefined ? {} : { timeoutMs: s.timeoutMs }),
    },
  };
}

/**
 * Every intent of the flows, each id once (the first flow declaring it wins): what the
 * bot's understander is given, and what `switchboard eval` measures.
 * @example
 * const intents = intentsOf(loaded.bot.flows);
 */
export function intentsOf(flows: readonly RunnableFlow[]): IntentSpec[] {
  const seen = new Map<string, IntentSpec>();
  for (const f of flows) for (const i of f.intents ?? []) if (!seen.has(i.id)) seen.set(i.id, i);
  return [...seen.values()];
}
