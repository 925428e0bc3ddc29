import type { AnyStateMachine } from 'xstate';
import type { ResolvedBot } from '../bot/resolve-bot.js';
import type { RunnableFlow } from '../flows/contract.js';
import type { ConversationView } from '../engine/types.js';
import type { StudioRuntime } from './studio-runtime.js';

/** What becomes of one running conversation when the bot is reloaded. */
export type ReloadDecision =
  /** Its state exists in the new flow: it goes on where it is. */
  | { readonly action: 'keep' }
  /** The flow's version changed: the flow's own version rule applies at its next event. */
  | { readonly action: 'version-rule' }
  /** Its state (or flow) is gone: it is started again at the flow's start, variables kept. */
  | { readonly action: 'restart'; readonly flowId: string; readonly reason: string };

/** Decides a conversation's fate after a reload; pass your own to {@link reloadBot}. */
export type ReloadPolicy = (
  conversation: Pick<ConversationView, 'flowId' | 'flowVersion' | 'state' | 'ended'>,
  next: ResolvedBot,
) => ReloadDecision;

/**
 * The default {@link ReloadPolicy}: a conversation keeps its state when the new flow still
 * has it; a changed flow version is left to the flow's version rule (`onVersionChange`:
 * restart or migrate); a conversation in a state or flow that no longer exists goes to
 * the start of its flow (or of the entry flow, when its flow was removed).
 */
export const keepOrRestart: ReloadPolicy = (conversation, next) => {
  if (conversation.ended || conversation.state === '') return { action: 'keep' };
  const flow = next.flows.find((f) => f.id === conversation.flowId);
  if (flow === undefined) {
    const entry = next.flows.find((f) => f.id === next.entry) ?? next.flows[0];
    return {
      action: 'restart',
      flowId: entry?.id ?? conversation.flowId,
      reason: `flow "${conversation.flowId}" is gone`,
    };
  }
  if (flow.version !== conversation.flowVersion) return { action: 'version-rule' };
  if (stateExists(flow.machine, conversation.state)) return { action: 'keep' };
  return {
    action: 'restart',
    flowId: flow.id,
    reason: `state "${conversation.state}" no longer exists in ${flow.id}`,
  };
};

/** Whether a machine has the state at a dotted path (`menu`, `order.askNumber`). */
export function stateExists(machine: AnyStateMachine, path: string): boolean {
  let node: { readonly states: Readonly<Record<string, unknown>> } = machine.root;
  for (const key of path.split('.')) {
    const child = node.states[key] as typeof node | undefined;
    if (child === undefined) return false;
    node = child;
  }
  return true;
}

/** What a reload did to the running conversations. */
export interface ReloadReport {
  readonly flows: readonly { readonly id: string; readonly version: number }[];
  readonly kept: number;
  readonly versionRule: number;
  readonly restarted: readonly {
    readonly conversationId: string;
    readonly flowId: string;
    readonly reason: string;
  }[];
}

let reloads = 0;

/**
 * Hot reload at the bot level: swaps `next` into the running studio (the conversations
 * live in the store and go on), then applies `policy` to every conversation of the
 * sandbox. A conversation sent back to a start keeps its variables (`bot.start`).
 */
export async function reloadBot(
  runtime: StudioRuntime,
  next: ResolvedBot,
  policy: ReloadPolicy = keepOrRestart,
): Promise<ReloadReport> {
  const bot = await runtime.replaceBot(next);
  const stamp = `${Date.now()}-${++reloads}`;
  let kept = 0;
  let versionRule = 0;
  const restarted: { conversationId: string; flowId: string; reason: string }[] = [];
  for (const conversation of runtime.sandbox.control.conversations()) {
    const view = await bot.inspect(conversation.id);
    if (view === undefined) continue;
    const decision = policy(view, next);
    if (decision.action === 'keep') kept += 1;
    else if (decision.action === 'version-rule') versionRule += 1;
    else {
      await bot.start(
        { phone: conversation.phoneNumber, conversationId: conversation.id },
        decision.flowId,
        view.vars,
        { id: `studio-reload:${stamp}:${conversation.id}` },
      );
      restarted.push({
        conversationId: conversation.id,
        flowId: decision.flowId,
        reason: decision.reason,
      });
    }
  }
  return {
    flows: next.flows.map((f: RunnableFlow) => ({ id: f.id, version: f.version })),
    kept,
    versionRule,
    restarted,
  };
}
