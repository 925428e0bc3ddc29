import type { Message } from '../api/resources.js';
import { SERVICE_WINDOW_MS } from '../core/limits.js';
import { z } from 'zod';
import { viewOfRequest, type MessageView } from '../testing/message-view.js';
import type { TimelineEntry } from './session-recorder.js';

/** A message as the studio's phone view draws it. */
export type PhoneMessage =
  | {
      readonly kind: 'outbound';
      readonly id: string;
      readonly at: number;
      /** queued, sent, delivered, read or failed: the ticks. */
      readonly status: string;
      readonly failureCode?: string;
      /** Written by a teammate in the dashboard inbox (not by the bot). */
      readonly teammate: boolean;
      readonly view: MessageView;
      /** A template's body with its parameters filled in, when the template is known. */
      readonly templateText?: string;
      /** A list's sections with their rows (option ids as a tap sends them). */
      readonly sections?: readonly ListSection[];
    }
  | {
      readonly kind: 'inbound';
      readonly id: string;
      readonly at: number;
      readonly type: string;
      readonly text?: string;
      /** The tapped option's title, for button and list replies. */
      readonly tapped?: string;
      readonly media?: {
        readonly id?: string;
        readonly availability: string;
        readonly mimeType?: string;
        readonly filename?: string;
        readonly caption?: string;
      };
      readonly location?: { readonly latitude: number; readonly longitude: number };
      readonly contacts?: readonly { readonly name: string; readonly phones: readonly string[] }[];
    }
  /** A send the API refused, or another outcome a person should see in the chat. */
  | { readonly kind: 'notice'; readonly id: string; readonly at: number; readonly text: string };

/** One section of a list message. */
export interface ListSection {
  readonly title: string;
  readonly rows: readonly {
    readonly optionId: string;
    readonly title: string;
    readonly description?: string;
  }[];
}

const Sections = z.array(
  z.looseObject({
    title: z.string().optional(),
    rows: z.array(
      z.looseObject({ id: z.string(), title: z.string(), description: z.string().optional() }),
    ),
  }),
);

/** The customer-service window as the phone view shows it. */
export interface WindowView {
  /** `none` before the contact ever wrote; `closing` in its last hour. */
  readonly state: 'none' | 'open' | 'closing' | 'closed';
  /** Epoch ms the window closes (or closed) at. */
  readonly closesAt?: number;
}

/** The last hour of the window is shown as "closing". */
export const CLOSING_MS = 60 * 60_000;

/** The window at `now` for a contact whose last inbound message was at `lastInboundAt`. */
export function windowView(lastInboundAt: number | undefined, now: number): WindowView {
  if (lastInboundAt === undefined) return { state: 'none' };
  const closesAt = lastInboundAt + SERVICE_WINDOW_MS;
  const left = closesAt - now;
  return { state: left <= 0 ? 'closed' : left <= CLOSING_MS ? 'closing' : 'open', closesAt };
}

/**
 * The phone view of a conversation: its messages oldest first (bot sends rendered with the
 * same views as the terminal chat, teammate replies marked), with refused sends from the
 * timeline shown where they happened.
 */
export function phoneMessages(
  messages: readonly Message[],
  botMessageIds: ReadonlySet<string>,
  timeline: readonly TimelineEntry[],
  templates: readonly KnownTemplate[] = [],
): PhoneMessage[] {
  const out: PhoneMessage[] = messages.map((m) =>
    withTemplateText(toPhone(m, botMessageIds), templates),
  );
  for (const entry of timeline) {
    if (entry.kind !== 'send' || entry.ok !== false) continue;
    out.push({
      kind: 'notice',
      id: `notice-${entry.seq}`,
      at: entry.at,
      text: `not sent (${entry.outcome ?? 'failed'}): ${entry.text}`,
    });
  }
  return out.sort((a, b) => a.at - b.at);
}

/** A template as the sandbox knows it: its body text with `{{1}}`-style placeholders. */
export interface KnownTemplate {
  readonly name: string;
  readonly language: string;
  readonly components: readonly { readonly type: string; readonly text?: string | undefined }[];
}

function withTemplateText(
  message: PhoneMessage,
  templates: readonly KnownTemplate[],
): PhoneMessage {
  if (message.kind !== 'outbound' || message.view.type !== 'template') return message;
  const { name, language, parameters } = message.view;
  const body = templates
    .find((t) => t.name === name && t.language === language)
    ?.components.find((c) => c.type === 'body')?.text;
  if (body === undefined) return message;
  const templateText = body.replace(
    /\{\{(\d+)\}\}/g,
    (all, n: string) => parameters[Number(n) - 1] ?? all,
  );
  return { ...message, templateText };
}

function toPhone(m: Message, botMessageIds: ReadonlySet<string>): PhoneMessage {
  const at = Date.parse(m.occurredAt);
  if (m.direction === 'outbound') {
    const action = (m.interactive as { action?: { sections?: unknown } } | undefined)?.action;
    const sections = Sections.safeParse(action?.sections);
    return {
      ...(sections.success
        ? {
            sections: sections.data.map((section) => ({
              title: section.title ?? '',
              rows: section.rows.map((r) => ({
                optionId: r.id,
                title: r.title,
                ...(r.description === undefined ? {} : { description: r.description }),
              })),
            })),
          }
        : {}),
      kind: 'outbound',
      id: m.id,
      at,
      status: m.status,
      ...(m.failureCode === undefined ? {} : { failureCode: m.failureCode }),
      teammate: !botMessageIds.has(m.id),
      view: viewOfRequest(m),
    };
  }
  const base = { kind: 'inbound' as const, id: m.id, at, type: m.type };
  const reply = m.interactive as { label?: unknown } | undefined;
  const content = (m as Record<string, unknown>)[m.type] as { caption?: unknown } | undefined;
  const location = m.location as { latitude?: unknown; longitude?: unknown } | undefined;
  return {
    ...base,
    ...(m.text?.body === undefined ? {} : { text: m.text.body }),
    ...(typeof reply?.label === 'string' ? { tapped: reply.label } : {}),
    ...(m.media === undefined
      ? {}
      : {
          media: {
            availability: m.media.availability,
            ...(m.media.id === undefined ? {} : { id: m.media.id }),
            ...(m.media.mimeType === undefined ? {} : { mimeType: m.media.mimeType }),
            ...(m.media.filename === undefined ? {} : { filename: m.media.filename }),
            ...(typeof content?.caption === 'string' ? { caption: content.caption } : {}),
          },
        }),
    ...(typeof location?.latitude === 'number' && typeof location.longitude === 'number'
      ? { location: { latitude: location.latitude, longitude: location.longitude } }
      : {}),
    ...(m.contacts === undefined
      ? {}
      : {
          contacts: m.contacts.map((c) => ({
            name: typeof c['name'] === 'string' ? c['name'] : '',
            phones: Array.isArray(c['phones']) ? c['phones'].map(String) : [],
          })),
        }),
  };
}
