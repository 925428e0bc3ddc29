/**
 * The codec table of the stored journal (stored-journal.ts): for each entry kind, its fields
 * in their stored order and how each is stored. An entry's kind code is the index of its
 * kind here, an enumeration's code the index of its value, a common value's code its index
 * in its list: these are the stored format. Append to them; never reorder or remove.
 */
import type { JournalEntryKind } from './journal-entry.js';

/** How one field is stored. */
export type FieldType =
  | { readonly type: 'string'; readonly common?: readonly string[] }
  | { readonly type: 'number' }
  | { readonly type: 'int' }
  | { readonly type: 'boolean' }
  | { readonly type: 'enum'; readonly values: readonly string[] }
  | { readonly type: 'strings' }
  | { readonly type: 'scalars' }
  /** A flow id, left out when it is the document's. */
  | { readonly type: 'flow' }
  /** A run's epoch, stored as a delta from the document's. */
  | { readonly type: 'epoch' }
  /** A time, stored as a delta from the entry's `at`. */
  | { readonly type: 'time' };

/** One field of an entry kind. */
export type Field = FieldType & { readonly name: string; readonly optional?: true };

/** The stored fields of one entry kind. */
export interface Codec {
  readonly kind: JournalEntryKind;
  readonly fields: readonly Field[];
}

const MESSAGE_TYPES = [
  'text',
  'template',
  'image',
  'video',
  'audio',
  'document',
  'interactive',
  'location',
  'contacts',
  'unsupported',
];
const EVENT_TYPES = [
  'inbound.message',
  'handler.done',
  'handler.error',
  'timer.fired',
  'send.failed',
  'send.unknown',
  'window.closed',
  'handoff.started',
  'handoff.released',
  'conversation.start',
  'subflow.done',
  'external.event',
];
const DELIVERY_STATUSES = ['sent', 'delivered', 'read', 'failed', 'queued'];

const str = (name: string, common?: readonly string[]): Field =>
  common === undefined ? { name, type: 'string' } : { name, type: 'string', common };
const opt = (field: Field): Field => ({ ...field, optional: true });
const oneOf = (name: string, values: readonly string[]): Field => ({ name, type: 'enum', values });

/** The stored format of each kind; an entry's kind code is its index here. */
export const CODECS: readonly Codec[] = [
  {
    kind: 'inbound',
    fields: [
      str('messageId'),
      str('type', MESSAGE_TYPES),
      opt(str('text')),
      opt(str('optionId')),
      opt(oneOf('ignored', ['human_owned', 'history'])),
    ],
  },
  {
    kind: 'understood',
    fields: [
      str('messageId'),
      str('source', ['builtin', 'llm', 'scripted']),
      { name: 'matched', type: 'boolean' },
      opt(str('intent')),
      { name: 'confidence', type: 'number', optional: true },
      { name: 'slots', type: 'strings', optional: true },
    ],
  },
  {
    kind: 'transition',
    fields: [str('from'), str('to'), str('event', EVENT_TYPES), { name: 'flowId', type: 'flow' }],
  },
  {
    kind: 'vars',
    fields: [
      { name: 'set', type: 'scalars' },
      { name: 'unset', type: 'strings', optional: true },
    ],
  },
  {
    kind: 'handler',
    fields: [
      str('handler'),
      str('requestId'),
      oneOf('status', ['done', 'error', 'timeout', 'unknown_outcome']),
      { name: 'durationMs', type: 'number' },
      opt(str('outcome')),
      opt(str('error')),
    ],
  },
  {
    kind: 'send',
    fields: [
      { name: 'seq', type: 'int' },
      str('contentType', MESSAGE_TYPES),
      oneOf('outcome', [
        'accepted',
        'rejected',
        'unknown',
        'held',
        'suppressed',
        'owned',
        'already_done',
      ]),
      opt(str('text')),
      opt(str('messageId')),
      opt(str('code')),
      opt(str('status', DELIVERY_STATUSES)),
      { name: 'fallback', type: 'boolean', optional: true },
      opt(str('sendId')),
    ],
  },
  {
    kind: 'timer',
    fields: [
      oneOf('action', ['set', 'fired', 'cancelled']),
      str('name'),
      { name: 'dueAt', type: 'time', optional: true },
    ],
  },
  {
    kind: 'handoff',
    fields: [
      oneOf('change', ['taken', 'released', 'requested']),
      oneOf('by', ['api', 'send', 'flow']),
      opt(str('reason')),
    ],
  },
  {
    kind: 'reconcile',
    fields: [
      str('sendId'),
      { name: 'seq', type: 'int' },
      { name: 'attempt', type: 'int' },
      oneOf('result', ['found', 'resent', 'retry', 'gave_up']),
      opt(str('messageId')),
      opt(str('code')),
    ],
  },
  {
    kind: 'lifecycle',
    fields: [
      oneOf('change', ['started', 'ended', 'subflow_started', 'subflow_returned']),
      { name: 'epoch', type: 'epoch', optional: true },
      { name: 'flowId', type: 'flow' },
    ],
  },
  {
    kind: 'error',
    fields: [
      oneOf('source', ['flow', 'machine', 'send', 'handler']),
      str('message'),
      opt(str('code')),
      opt(str('state')),
    ],
  },
];
