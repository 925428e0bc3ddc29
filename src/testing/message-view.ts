import { z } from 'zod';
import { decodeOptionId } from '../flows/option-id.js';

/** One option of a sent menu: `id` is the flow's option id, `optionId` what a tap sends back. */
export interface OptionView {
  readonly id: string;
  readonly optionId: string;
  readonly title: string;
  readonly description?: string;
}

/** A readable, typed view of one message the bot sent. */
export type MessageView =
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'buttons' | 'list';
      readonly text: string;
      readonly header?: string;
      readonly footer?: string;
      /** The list's action button label (lists only). */
      readonly button?: string;
      readonly options: readonly OptionView[];
    }
  | {
      readonly type: 'template';
      readonly name: string;
      readonly language: string;
      /** Every parameter's shown value in order (text, fallback_value or link). */
      readonly parameters: readonly string[];
    }
  | {
      readonly type: 'image' | 'video' | 'audio' | 'document';
      readonly link: string;
      readonly caption?: string;
      readonly filename?: string;
    }
  | {
      readonly type: 'location';
      readonly latitude: number;
      readonly longitude: number;
      readonly name?: string;
      readonly address?: string;
    }
  | {
      readonly type: 'contacts';
      readonly name: string;
      readonly phones: readonly string[];
      readonly emails: readonly string[];
    }
  | { readonly type: 'unknown'; readonly raw: string };

const Text = z.looseObject({ text: z.looseObject({ body: z.string() }) });
const Row = z.looseObject({
  id: z.string(),
  title: z.string(),
  description: z.string().optional(),
});
const Interactive = z.looseObject({
  interactive: z.looseObject({
    type: z.enum(['button', 'list']),
    header: z.looseObject({ text: z.string() }).optional(),
    body: z.looseObject({ text: z.string() }),
    footer: z.looseObject({ text: z.string() }).optional(),
    action: z.looseObject({
      button: z.string().optional(),
      buttons: z
        .array(z.looseObject({ reply: z.looseObject({ id: z.string(), title: z.string() }) }))
        .optional(),
      sections: z.array(z.looseObject({ rows: z.array(Row) })).optional(),
    }),
  }),
});
const Parameter = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  currency: z.looseObject({ fallback_value: z.string() }).optional(),
  date_time: z.looseObject({ fallback_value: z.string() }).optional(),
  image: z.looseObject({ link: z.string() }).optional(),
  video: z.looseObject({ link: z.string() }).optional(),
  document: z.looseObject({ link: z.string() }).optional(),
});
const Template = z.looseObject({
  template: z.looseObject({
    name: z.string(),
    language: z.looseObject({ code: z.string() }),
    components: z.array(z.looseObject({ parameters: z.array(Parameter).optional() })).optional(),
  }),
});
const Media = z.looseObject({
  link: z.string(),
  caption: z.string().optional(),
  filename: z.string().optional(),
});
const Location = z.looseObject({
  location: z.looseObject({
    latitude: z.number(),
    longitude: z.number(),
    name: z.string().optional(),
    address: z.string().optional(),
  }),
});
const Contacts = z.looseObject({
  contacts: z
    .array(
      z.looseObject({
        name: z.looseObject({ formatted_name: z.string() }),
        phones: z.array(z.looseObject({ phone: z.string() })).optional(),
        emails: z.array(z.looseObject({ email: z.string() })).optional(),
      }),
    )
    .min(1),
});

const MEDIA_TYPES = ['image', 'video', 'audio', 'document'] as const;

/**
 * Builds the view of a send request body (as the sandbox records it, or as a flow
 * effect's content). Unknown shapes become `{ type: 'unknown' }`, never an exception.
 */
export function viewOfRequest(request: Readonly<Record<string, unknown>>): MessageView {
  const unknown = (): MessageView => ({ type: 'unknown', raw: JSON.stringify(request) });
  const type = request['type'];
  if (type === 'text') {
    const p = Text.safeParse(request);
    return p.success ? { type: 'text', text: p.data.text.body } : unknown();
  }
  if (type === 'interactive') {
    const p = Interactive.safeParse(request);
    if (!p.success) return unknown();
    const i = p.data.interactive;
    const raw =
      i.type === 'button'
        ? (i.action.buttons ?? []).map((b) => ({ id: b.reply.id, title: b.reply.title }))
        : (i.action.sections ?? []).flatMap((s) => s.rows);
    const options = raw.map((o): OptionView => ({
      id: decodeOptionId(o.id)?.option ?? o.id,
      optionId: o.id,
      title: o.title,
      ...('description' in o && typeof o.description === 'string'
        ? { description: o.description }
        : {}),
    }));
    return {
      type: i.type === 'button' ? 'buttons' : 'list',
      text: i.body.text,
      ...(i.header === undefined ? {} : { header: i.header.text }),
      ...(i.footer === undefined ? {} : { footer: i.footer.text }),
      ...(i.action.button === undefined ? {} : { button: i.action.button }),
      options,
    };
  }
  if (type === 'template') {
    const p = Template.safeParse(request);
    if (!p.success) return unknown();
    const t = p.data.template;
    const parameters = (t.components ?? []).flatMap((c) =>
      (c.parameters ?? []).map(
        (q) =>
          q.text ??
          q.currency?.fallback_value ??
          q.date_time?.fallback_value ??
          q.image?.link ??
          q.video?.link ??
          q.document?.link ??
          `(${q.type})`,
      ),
    );
    return { type: 'template', name: t.name, language: t.language.code, parameters };
  }
  const mediaType = MEDIA_TYPES.find((m) => m === type);
  if (mediaType !== undefined) {
    const p = Media.safeParse(request[mediaType]);
    if (!p.success) return unknown();
    return {
      type: mediaType,
      link: p.data.link,
      ...(p.data.caption === undefined ? {} : { caption: p.data.caption }),
      ...(p.data.filename === undefined ? {} : { filename: p.data.filename }),
    };
  }
  if (type === 'location') {
    const p = Location.safeParse(request);
    if (!p.success) return unknown();
    const l = p.data.location;
    return {
      type: 'location',
      latitude: l.latitude,
      longitude: l.longitude,
      ...(l.name === undefined ? {} : { name: l.name }),
      ...(l.address === undefined ? {} : { address: l.address }),
    };
  }
  if (type === 'contacts') {
    const p = Contacts.safeParse(request);
    const card = p.success ? p.data.contacts[0] : undefined;
    if (card === undefined) return unknown();
    return {
      type: 'contacts',
      name: card.name.formatted_name,
      phones: (card.phones ?? []).map((x) => x.phone),
      emails: (card.emails ?? []).map((x) => x.email),
    };
  }
  return unknown();
}

/**
 * Renders a view as readable lines (no prefix): buttons and rows numbered from 1,
 * captions, templates with their parameters.
 * @example
 * renderView({ type: 'buttons', text: 'Menu', options }) // ['Menu', '  [1] FAQ', '  [2] Talk to a person']
 */
export function renderView(view: MessageView): string[] {
  switch (view.type) {
    case 'text':
      return view.text.split('\n');
    case 'buttons':
    case 'list': {
      const lines: string[] = [];
      if (view.header !== undefined) lines.push(`*${view.header}*`);
      lines.push(...view.text.split('\n'));
      if (view.footer !== undefined) lines.push(`_${view.footer}_`);
      if (view.type === 'list') lines.push(`  (list "${view.button ?? ''}")`);
      view.options.forEach((o, i) =>
        lines.push(
          `  [${i + 1}] ${o.title}${o.description === undefined ? '' : ` - ${o.description}`}`,
        ),
      );
      return lines;
    }
    case 'template':
      return [
        `[template ${view.name} (${view.language})]${view.parameters.length === 0 ? '' : ` ${view.parameters.join(' | ')}`}`,
      ];
    case 'image':
    case 'video':
    case 'audio':
    case 'document': {
      const name = view.filename === undefined ? '' : ` ${view.filename}`;
      const caption = view.caption === undefined ? '' : ` "${view.caption}"`;
      return [`[${view.type}${name}] ${view.link}${caption}`];
    }
    case 'location': {
      const label = [view.name, view.address].filter((x) => x !== undefined).join(', ');
      return [`[location] ${label === '' ? '' : `${label} `}(${view.latitude}, ${view.longitude})`];
    }
    case 'contacts':
      return [`[contact card] ${[view.name, ...view.phones, ...view.emails].join(', ')}`];
    case 'unknown':
      return [`[message] ${view.raw}`];
  }
}
