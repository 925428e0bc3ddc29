import { checkSendOptions } from '../engine/check-options.js';
import type { Handler, SendOptions } from '../engine/types.js';
import type { RunnableFlow } from '../flows/contract.js';
import type { FlowDefinition } from '../flows/flow-schema.js';
import type { SandboxConfigInput } from '../sandbox/index.js';
import type { UnderstanderFactory, UnderstandSettings } from '../understand/setup.js';
import type { Understander } from '../understand/types.js';

/** A template as the sandbox configuration declares it (name, language, parameter kinds). */
export type SandboxTemplate = NonNullable<SandboxConfigInput['templates']>[number];

/**
 * One flow of a bot: a compiled flow (or a hand-written machine following the flow
 * contract), a flow definition (`defineFlow`), or the path / file URL of a flow file.
 * Relative paths are resolved against the bot module's directory (`loadBot`) or
 * `dir` when given.
 */
export type BotFlowSource = RunnableFlow | FlowDefinition | string | URL;

/** What {@link defineBot} accepts. */
export interface BotDefinitionInput {
  /**
   * The bot's name, shown by the studio (and in logs where a bot is named). Default: the
   * name of the bot's folder (`examples/support-desk/bot.ts` → `support-desk`). 1 to 100
   * characters.
   */
  readonly name?: string;
  /**
   * The flows: every flow the bot runs, as the entry flow, as a sub-flow (`subflow.use`)
   * or through `bot.start`. The first is the entry flow unless `entry` names another.
   */
  readonly flows: readonly BotFlowSource[];
  /** Business logic the flows call, by name. */
  readonly handlers?: Readonly<Record<string, Handler>>;
  /**
   * Id of the entry flow: the flow a new conversation enters when a contact writes first
   * (at its `start` state, or at the state of one of its `triggers` that the first
   * message matches). Default: the first flow of `flows`. Other flows run only as
   * sub-flows or when started with `bot.start(contact, flowId)`. A conversation keeps its
   * flow: after that flow ends, the contact's next message starts the same flow again.
   * The test kit's `createTestConversation(bot, { flow })` overrides it in a test.
   * @example
   * defineBot({ flows: [support, booking], entry: 'booking' }); // new conversations book
   */
  readonly entry?: string;
  /**
   * Approved templates the bot sends, registered in the sandbox of `switchboard dev` and
   * the test kit (a real account has them approved in its dashboard instead).
   */
  readonly templates?: readonly SandboxTemplate[];
  /** Directory relative flow paths are resolved against (e.g. `import.meta.dirname`). */
  readonly dir?: string;
  /**
   * Who understands free text in flows that declare intents: an understander, or a
   * factory given the bot's intents and knowledge (default: the builtin; see
   * docs/understanding.md).
   */
  readonly understander?: Understander | UnderstanderFactory;
  /** Bot-level settings of understanding: threshold, timezone, knowledge files, model. */
  readonly understand?: UnderstandSettings;
  /**
   * Sends whose outcome stays unknown: never sent again by default; `{ resendAfterAbsence:
   * true }` sends one once more after a proof of absence (duplicate risk: see
   * docs/production.md).
   */
  readonly sends?: SendOptions;
}

/** A bot: flows plus handlers, not yet compiled (see `resolveBot`). */
export interface BotDefinition {
  readonly kind: 'switchboard.bot';
  /** The name given to {@link defineBot}, if any. */
  readonly name: string | undefined;
  readonly flows: readonly BotFlowSource[];
  readonly handlers: Readonly<Record<string, Handler>>;
  readonly entry: string | undefined;
  readonly templates: readonly SandboxTemplate[];
  readonly dir: string | undefined;
  readonly understander: Understander | UnderstanderFactory | undefined;
  readonly understand: UnderstandSettings | undefined;
  readonly sends: SendOptions | undefined;
}

/**
 * Declares a bot module: export it as `bot` so `switchboard dev|run <module>` and the
 * test kit can load it.
 * @example
 * export const bot = defineBot({
 *   name: 'Order desk',
 *   flows: [new URL('../../flows/order-status.yaml', import.meta.url)],
 *   handlers: { lookupOrder: async ({ input }) => ({ outcome: 'ready' }) },
 * });
 */
export function defineBot(input: BotDefinitionInput): BotDefinition {
  if (input.flows.length === 0) {
    throw new TypeError(
      'defineBot: `flows` must list at least one flow (a file path, a definition or a compiled flow)',
    );
  }
  if (input.name !== undefined) {
    const name: unknown = input.name;
    if (typeof name !== 'string' || name.trim() === '' || name.length > 100)
      throw new TypeError(
        `defineBot: \`name\` must be a text of 1 to 100 characters (got ${typeof name === 'string' ? `${name.length} characters` : typeof name})`,
      );
  }
  for (const [name, handler] of Object.entries(input.handlers ?? {})) {
    if (typeof handler !== 'function')
      throw new TypeError(`defineBot: handler "${name}" is not a function`);
  }
  const sendProblems = checkSendOptions(input.sends);
  if (sendProblems.length > 0) throw new TypeError(`defineBot: ${sendProblems.join('; ')}`);
  return Object.freeze({
    kind: 'switchboard.bot' as const,
    name: input.name,
    flows: [...input.flows],
    handlers: { ...input.handlers },
    entry: input.entry,
    templates: [...(input.templates ?? [])],
    dir: input.dir,
    understander: input.understander,
    understand: input.understand,
    sends: input.sends,
  });
}

/** True when `value` was made by {@link defineBot}. */
export function isBotDefinition(value: unknown): value is BotDefinition {
  return (
    typeof value === 'object' &&
    value !== null &&
    'kind' in value &&
    value.kind === 'switchboard.bot'
  );
}
