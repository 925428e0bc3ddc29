import { sayItems, type SayInput } from './content-schema.js';
import type { FlowDefinition, StateDef } from './flow-schema.js';

/** Kinds of edges between states (used by the linter and the diagram). */
export type EdgeKind =
  | 'option'
  | 'select'
  | 'answer'
  | 'fail'
  | 'outcome'
  | 'error'
  | 'timeout'
  | 'resume'
  | 'goto'
  | 'otherwise'
  | 'window'
  | 'send-failed'
  | 'branch'
  | 'subflow'
  | 'intent';

/** One edge out of a state. */
export interface Edge {
  readonly kind: EdgeKind;
  readonly target: string;
  readonly label: string;
  /** Path of the `goto` (or equivalent) that declares it. */
  readonly path: string;
}

/** Path of the i-th message of a say input (a single message has no index). */
export function sayPath(prefix: string, say: SayInput | undefined, i: number): string {
  return Array.isArray(say) ? `${prefix}[${i}]` : prefix;
}

function windowEdges(prefix: string, say: SayInput | undefined): Edge[] {
  return sayItems(say).flatMap((item, i) =>
    item.window?.onClosed === 'goto'
      ? [
          {
            kind: 'window' as const,
            target: item.window.goto,
            label: 'window closed',
            path: `${sayPath(prefix, say, i)}.window.goto`,
          },
        ]
      : [],
  );
}

/** The edges declared by one state. */
export function stateEdges(name: string, s: StateDef): Edge[] {
  const p = `states.${name}`;
  const edges: Edge[] = [...windowEdges(`${p}.say`, s.say)];
  s.menu?.options.forEach((o, i) =>
    edges.push({
      kind: 'option',
      target: o.goto,
      label: o.title,
      path: `${p}.menu.options[${i}].goto`,
    }),
  );
  if (s.menu?.onSelect !== undefined) {
    edges.push({
      kind: 'select',
      target: s.menu.onSelect.goto,
      label: `row of ${s.menu.rowsFrom ?? '?'}`,
      path: `${p}.menu.onSelect.goto`,
    });
  }
  if (s.menu?.window?.onClosed === 'goto') {
    edges.push({
      kind: 'window',
      target: s.menu.window.goto,
      label: 'window closed',
      path: `${p}.menu.window.goto`,
    });
  }
  if (s.ask !== undefined) {
    edges.push({
      kind: 'answer',
      target: s.ask.goto,
      label: `valid ${s.ask.var}`,
      path: `${p}.ask.goto`,
    });
    if (s.ask.onFail !== undefined) {
      edges.push({
        kind: 'fail',
        target: s.ask.onFail,
        label: `${s.ask.maxAttempts} invalid answers`,
        path: `${p}.ask.onFail`,
      });
    }
    edges.push(...windowEdges(`${p}.ask.prompt`, s.ask.prompt));
  }
  if (s.call !== undefined) {
    for (const [outcome, target] of Object.entries(s.call.outcomes)) {
      edges.push({
        kind: 'outcome',
        target,
        label: `${s.call.handler}: ${outcome}`,
        path: `${p}.call.outcomes.${outcome}`,
      });
    }
    if (s.call.onError !== undefined) {
      edges.push({
        kind: 'error',
        target: s.call.onError,
        label: `${s.call.handler} error`,
        path: `${p}.call.onError`,
      });
    }
    if (s.call.onTimeout !== undefined) {
      edges.push({
        kind: 'timeout',
        target: s.call.onTimeout,
        label: `${s.call.handler} timeout`,
        path: `${p}.call.onTimeout`,
      });
    }
  }
  if (s.subflow !== undefined) {
    edges.push({
      kind: 'subflow',
      target: s.subflow.goto,
      label: `${s.subflow.use} done`,
      path: `${p}.subflow.goto`,
    });
    if (s.subflow.onError !== undefined)
      edges.push({
        kind: 'error',
        target: s.subflow.onError,
        label: `${s.subflow.use} failed`,
        path: `${p}.subflow.onError`,
      });
  }
  s.branch?.forEach((b, i) =>
    edges.push({
      kind: 'branch',
      target: b.goto,
      label: b.if ?? 'else',
      path: `${p}.branch[${i}].goto`,
    }),
  );
  if (s.handoff !== undefined) {
    edges.push({
      kind: 'resume',
      target: s.handoff.resume,
      label: 'released',
      path: `${p}.handoff.resume`,
    });
  }
  if (s.otherwise?.goto !== undefined) {
    edges.push({
      kind: 'otherwise',
      target: s.otherwise.goto,
      label: 'otherwise',
      path: `${p}.otherwise.goto`,
    });
  }
  if (s.timeout !== undefined) {
    edges.push({
      kind: 'timeout',
      target: s.timeout.goto,
      label: `no reply ${s.timeout.after}`,
      path: `${p}.timeout.goto`,
    });
  }
  if (s.goto !== undefined)
    edges.push({ kind: 'goto', target: s.goto, label: '', path: `${p}.goto` });
  if (s.understand !== undefined && s.understand !== false) {
    for (const [intent, target] of Object.entries(s.understand.intents ?? {}))
      edges.push({
        kind: 'intent',
        target,
        label: intent,
        path: `${p}.understand.intents.${intent}`,
      });
    if (s.understand.noAnswer !== undefined)
      edges.push({
        kind: 'intent',
        target: s.understand.noAnswer,
        label: 'not understood',
        path: `${p}.understand.noAnswer`,
      });
  }
  if (s.remind?.goto !== undefined)
    edges.push({
      kind: 'timeout',
      target: s.remind.goto,
      label: 'reminder',
      path: `${p}.remind.goto`,
    });
  const rules =
    s.onSendFailed === undefined
      ? []
      : Array.isArray(s.onSendFailed)
        ? s.onSendFailed
        : [s.onSendFailed];
  rules.forEach((r, i) =>
    edges.push({
      kind: 'send-failed',
      target: r.goto,
      label: `send failed${r.codes === undefined ? '' : `: ${r.codes.join(', ')}`}`,
      path: Array.isArray(s.onSendFailed)
        ? `${p}.onSendFailed[${i}].goto`
        : `${p}.onSendFailed.goto`,
    }),
  );
  return edges;
}

/** Targets reachable from any state (triggers, flow-level error, send-failed and release rules). */
export function globalEdges(flow: FlowDefinition): Edge[] {
  const edges: Edge[] = [];
  flow.triggers?.forEach((t, i) =>
    edges.push({
      kind: 'goto',
      target: t.goto,
      label: t.keywords.join(' / '),
      path: `triggers[${i}].goto`,
    }),
  );
  for (const [event, rule] of Object.entries(flow.on ?? {}))
    if (rule.goto !== undefined)
      edges.push({
        kind: 'goto',
        target: rule.goto,
        label: `on ${event}`,
        path: `on.${event}.goto`,
      });
  for (const [id, intent] of Object.entries(flow.intents ?? {}))
    if (intent.goto !== undefined)
      edges.push({ kind: 'intent', target: intent.goto, label: id, path: `intents.${id}.goto` });
  if (flow.understand?.handoff !== undefined)
    edges.push({
      kind: 'intent',
      target: flow.understand.handoff,
      label: 'asks for a person',
      path: 'understand.handoff',
    });
  if (flow.understand?.noAnswer !== undefined)
    edges.push({
      kind: 'intent',
      target: flow.understand.noAnswer,
      label: 'not understood',
      path: 'understand.noAnswer',
    });
  if (flow.onError !== undefined)
    edges.push({ kind: 'error', target: flow.onError, label: 'error', path: 'onError' });
  const rules =
    flow.onSendFailed === undefined
      ? []
      : Array.isArray(flow.onSendFailed)
        ? flow.onSendFailed
        : [flow.onSendFailed];
  rules.forEach((r, i) =>
    edges.push({
      kind: 'send-failed',
      target: r.goto,
      label: `send failed${r.codes === undefined ? '' : `: ${r.codes.join(', ')}`}`,
      path: Array.isArray(flow.onSendFailed) ? `onSendFailed[${i}].goto` : 'onSendFailed.goto',
    }),
  );
  if (flow.onRelease !== undefined && flow.onRelease !== 'current') {
    edges.push({ kind: 'resume', target: flow.onRelease, label: 'released', path: 'onRelease' });
  }
  if (flow.window?.onClosed === 'goto') {
    edges.push({
      kind: 'window',
      target: flow.window.goto,
      label: 'window closed',
      path: 'window.goto',
    });
  }
  for (const [i, item] of sayItems(flow.fallback).entries()) {
    if (item.window?.onClosed === 'goto') {
      edges.push({
        kind: 'window',
        target: item.window.goto,
        label: 'window closed',
        path: `${sayPath('fallback', flow.fallback, i)}.window.goto`,
      });
    }
  }
  return edges;
}
