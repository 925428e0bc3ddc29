import { z } from 'zod';
import type { OutboundContent } from './contract.js';
import type { MessageItem } from './content-schema.js';
import type { MenuDef } from './flow-schema.js';
import { encodeOptionId } from './option-id.js';
import { mapStrings } from './interpolate.js';

/**
 * Turns flow content into API content objects (`{ type, <type>: {...} }`, spec 4.5).
 * Rendering never validates and never truncates: callers check the result with
 * `validateContent` (the machine at run time, the linter with placeholders filled).
 */

/** Fills `{{…}}` placeholders of one string. */
export type Fill = (text: string) => string;

/** A row of a dynamic list, read from a variable holding JSON. */
export const DynamicRowSchema = z.object({
  id: z.string().min(1),
  title: z.string(),
  description: z.string().optional(),
});
export type DynamicRow = z.infer<typeof DynamicRowSchema>;

/** Reads the rows of a `rowsFrom` variable; undefined when it is not a JSON array of rows. */
export function parseDynamicRows(value: unknown): DynamicRow[] | undefined {
  if (typeof value !== 'string') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    // Not JSON: the caller treats it as invalid content.
    return undefined;
  }
  const parsed = z.array(DynamicRowSchema).safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/** Renders one `say` item. */
export function renderItem(item: MessageItem, fill: Fill): OutboundContent {
  const f = <T>(v: T): T => mapStrings(v, fill) as T;
  if (item.text !== undefined) {
    const text: Record<string, unknown> = { body: fill(item.text) };
    if (item.previewUrl !== undefined) text['preview_url'] = item.previewUrl;
    return { type: 'text', text };
  }
  if (item.template !== undefined) return renderTemplate(item.template, fill);
  if (item.image !== undefined) return { type: 'image', image: f(item.image) };
  if (item.video !== undefined) return { type: 'video', video: f(item.video) };
  if (item.audio !== undefined) return { type: 'audio', audio: f(item.audio) };
  if (item.document !== undefined) return { type: 'document', document: f(item.document) };
  if (item.interactive !== undefined)
    return { type: 'interactive', interactive: f(item.interactive) };
  if (item.location !== undefined) return { type: 'location', location: f(item.location) };
  if (item.contact !== undefined) return { type: 'contacts', contacts: [f(item.contact)] };
  // The schema guarantees one content key; an empty text is reported by validation.
  return { type: 'text', text: { body: '' } };
}

/** Renders a template reference (`language` becomes `language.code`). */
export function renderTemplate(
  t: { name: string; language: string; components?: unknown[] | undefined },
  fill: Fill,
): OutboundContent {
  const template: Record<string, unknown> = { name: t.name, language: { code: t.language } };
  if (t.components !== undefined) template['components'] = mapStrings(t.components, fill);
  return { type: 'template', template };
}

/** Where a menu is shown: ids are encoded with these. */
export interface MenuOrigin {
  readonly version: number;
  readonly state: string;
}

/** Renders a menu as reply buttons or a list; `rows` are the dynamic rows (shown first). */
export function renderMenu(
  menu: MenuDef,
  origin: MenuOrigin,
  fill: Fill,
  rows: readonly DynamicRow[] = [],
): OutboundContent {
  const id = (option: string): string => encodeOptionId(origin.version, origin.state, option);
  const interactive: Record<string, unknown> = { type: menu.type === 'list' ? 'list' : 'button' };
  if (menu.header !== undefined) interactive['header'] = { type: 'text', text: fill(menu.header) };
  interactive['body'] = { text: fill(menu.body) };
  if (menu.footer !== undefined) interactive['footer'] = { text: fill(menu.footer) };
  if (menu.type === 'list') {
    const all = [
      ...rows.map((r) => ({ ...r, id: id(r.id) })),
      ...menu.options.map((o) => ({
        id: id(o.id),
        title: fill(o.title),
        ...(o.description === undefined ? {} : { description: fill(o.description) }),
      })),
    ];
    const label = fill(menu.button ?? '');
    interactive['action'] = {
      button: label,
      sections: [{ title: menu.section === undefined ? label : fill(menu.section), rows: all }],
    };
  } else {
    interactive['action'] = {
      buttons: menu.options.map((o) => ({
        type: 'reply',
        reply: { id: id(o.id), title: fill(o.title) },
      })),
    };
  }
  return { type: 'interactive', interactive };
}
