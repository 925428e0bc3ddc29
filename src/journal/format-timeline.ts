/**
 * Readable text of a conversation read by {@link readConversationView}: a header (state,
 * ownership, variables, pending timers and effects) and the journal, one line per entry.
 */
import type { InspectedConversation, JournalEntryView } from './conversation-view.js';

/** Time of an entry as text: ISO 8601 UTC, to the millisecond. */
function time(at: number): string {
  return Number.isFinite(at) ? new Date(at).toISOString() : String(at);
}

function quote(text: string | undefined): string {
  return text === undefined ? '' : ` "${text}"`;
}

/**
 * One journal entry as one line (without its time).
 * @example
 * formatEntry({ kind: 'timer', at: 0, action: 'set', name: 'remind', dueAt: 60_000 });
 * // 'timer set     remind, due 1970-01-01T00:01:00.000Z'
 */
export function formatEntry(entry: JournalEntryView): string {
  switch (entry.kind) {
    case 'inbound': {
      const ignored =
        entry.ignored === undefined
          ? ''
          : entry.ignored === 'human_owned'
            ? ' (not fed: a person owns the conversation)'
            : ' (not fed: from before the bot started)';
      const option = entry.optionId === undefined ? '' : ` option ${entry.optionId}`;
      return `inbound       ${entry.messageId} ${entry.type}${option}${quote(entry.text)}${ignored}`;
    }
    case 'understood': {
      const intent =
        entry.intent === undefined
          ? 'no intent'
          : `intent ${entry.intent} (${String(entry.confidence ?? '?')})`;
      const slots = entry.slots === undefined ? '' : `, slots ${entry.slots.join(', ')}`;
      return `understood    ${entry.messageId}: ${intent}${entry.matched ? ' matched' : ' below threshold'} [${entry.source}]${slots}`;
    }
    case 'transition':
      return `transition    ${entry.from === '' ? '(start)' : entry.from} → ${entry.to} on ${entry.event} (${entry.flowId})`;
    case 'vars': {
      const set = Object.entries(entry.set).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
      const unset = (entry.unset ?? []).map((k) => `-${k}`);
      return `vars          ${[...set, ...unset].join(' ')}`;
    }
    case 'handler': {
      const outcome = entry.outcome === undefined ? '' : ` → ${entry.outcome}`;
      const error = entry.error === undefined ? '' : `: ${entry.error}`;
      return `handler       ${entry.handler} ${entry.status}${outcome} in ${entry.durationMs} ms${error}`;
    }
    case 'send':
      return `send #${entry.seq}${' '.repeat(Math.max(1, 7 - String(entry.seq).length))}${entry.contentType}${quote(entry.text)} ${sendResult(entry)}`;
    case 'timer': {
      const due = entry.dueAt === undefined ? '' : `, due ${time(entry.dueAt)}`;
      return `timer ${entry.action.padEnd(8)}${entry.name}${due}`;
    }
    case 'handoff': {
      const what =
        entry.change === 'requested'
          ? 'the flow asked for a person'
          : entry.change === 'taken'
            ? `a person owns the conversation (${entry.by === 'send' ? 'a send answered 409' : 'ownership from the API'})`
            : 'released to the bot';
      return `handoff       ${what}${entry.reason === undefined ? '' : `: ${entry.reason}`}`;
    }
    case 'reconcile': {
      const detail =
        entry.result === 'found'
          ? `found in history as ${entry.messageId ?? '?'} (it was admitted; not sent again)`
          : entry.result === 'resent'
            ? `proven absent from history; sent once more → ${entry.messageId ?? (entry.code === undefined ? 'outcome unknown again' : `rejected ${entry.code}`)}`
            : entry.result === 'retry'
              ? 'not in history yet; another attempt is scheduled'
              : 'still unknown after every attempt; the flow heard send.unknown';
      return `reconcile     send #${entry.seq} attempt ${entry.attempt}: ${detail}`;
    }
    case 'lifecycle':
      return `conversation  ${entry.change.replace('_', ' ')} (${entry.flowId})`;
    case 'error': {
      const code = entry.code === undefined ? '' : ` ${entry.code}`;
      const state = entry.state === undefined ? '' : ` in ${entry.state}`;
      return `error         ${entry.source}${code}${state}: ${entry.message}`;
    }
  }
}

function sendResult(entry: Extract<JournalEntryView, { kind: 'send' }>): string {
  const parts: string[] = [];
  const fallback = entry.fallback === true ? ' (template fallback)' : '';
  switch (entry.outcome) {
    case 'accepted':
      parts.push(`accepted ${entry.messageId ?? ''}${fallback}`.trim());
      break;
    case 'already_done':
      parts.push(
        `already done before a restart${entry.messageId === undefined ? '' : ` (${entry.messageId})`}`,
      );
      break;
    case 'rejected':
      parts.push(`rejected ${entry.code ?? ''}${fallback}`.trim());
      break;
    case 'unknown':
      parts.push('outcome unknown (never replayed; reconciled from history)');
      break;
    case 'held':
      parts.push('held until the contact writes (window closed)');
      break;
    case 'suppressed':
      parts.push('not sent: a person owns the conversation');
      break;
    case 'owned':
      parts.push('rejected: a person owns the conversation (409)');
      break;
  }
  if (entry.status !== undefined)
    parts.push(
      `status ${entry.status}${entry.outcome !== 'rejected' && entry.code !== undefined ? ` ${entry.code}` : ''}`,
    );
  const record = entry.record;
  if (record !== undefined && record.state !== entry.outcome) {
    const id =
      record.messageId === undefined || record.messageId === entry.messageId
        ? ''
        : ` ${record.messageId}`;
    const code = record.code === undefined || record.code === entry.code ? '' : ` ${record.code}`;
    parts.push(`record now ${record.state}${id}${code}`);
  }
  return parts.join('; ');
}

/**
 * A whole conversation as text.
 * @example
 * const result = await readConversationView(store, 'conv_1');
 * if (result.status === 'found') process.stdout.write(formatConversation(result.view));
 */
export function formatConversation(view: InspectedConversation): string {
  const lines: string[] = [];
  const owner = view.humanOwned ? 'a person (the bot is silent)' : 'the bot';
  lines.push(`conversation ${view.id} (version ${view.version})`);
  lines.push(`contact      ${view.contact.phone} ${view.contact.name} (${view.contact.id})`);
  lines.push(
    `flow         ${view.flowId} v${view.flowVersion}${view.callers.length > 0 ? ` (called from ${view.callers.join(' → ')})` : ''}`,
  );
  lines.push(
    `state        ${view.state === '' ? '(none)' : view.state}${view.ended ? ' (ended)' : ''}`,
  );
  lines.push(`owned by     ${owner}`);
  if (view.lastInboundAt !== undefined) lines.push(`last inbound ${time(view.lastInboundAt)}`);
  const s = view.summary;
  if (s.waitingOn !== undefined) lines.push(`waiting on   handler ${s.waitingOn}`);
  if (s.stuck !== undefined) lines.push(`stuck        ${s.stuck}`);
  if (s.lastError !== undefined)
    lines.push(
      `last error   ${time(s.lastError.at)} ${s.lastError.code ?? ''} ${s.lastError.message}`.replace(
        /\s+$/,
        '',
      ),
    );
  const vars = Object.entries(view.vars);
  lines.push(
    `variables    ${vars.length === 0 ? '(none)' : vars.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ')}`,
  );
  if (view.timers === undefined) lines.push('timers       (this store cannot list them)');
  else if (view.timers.length === 0) lines.push('timers       (none)');
  else for (const t of view.timers) lines.push(`timer        ${t.name} due ${time(t.dueAt)}`);
  if (view.pending.length > 0)
    lines.push(
      `pending      ${view.pending.map((p) => `${p.kind} #${p.seq}${p.handler === undefined ? '' : ` ${p.handler}`}`).join(', ')}`,
    );
  if (view.heldSends > 0) lines.push(`held sends   ${view.heldSends}`);
  lines.push('');
  lines.push(
    `timeline (${view.journal.length} entries${view.unreadableEntries > 0 ? `, ${view.unreadableEntries} unreadable left out` : ''})`,
  );
  if (view.journal.length === 0)
    lines.push('  (empty: nothing journaled yet, or written before the journal)');
  for (const entry of view.journal) lines.push(`  ${time(entry.at)}  ${formatEntry(entry)}`);
  return `${lines.join('\n')}\n`;
}
