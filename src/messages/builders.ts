/**
 * Builders for text, template, media, location and contact content. Each returns
 * validated content or throws MessageValidationError; nothing is ever truncated.
 */
import { build, opt } from './build.js';
import { ContactsContentSchema, type ContactsContent } from './contacts.js';
import { LocationContentSchema, type LocationContent } from './location.js';
import {
  AudioContentSchema,
  DocumentContentSchema,
  ImageContentSchema,
  VideoContentSchema,
  type AudioContent,
  type DocumentContent,
  type ImageContent,
  type VideoContent,
} from './media.js';
import { TemplateContentSchema, type TemplateComponent, type TemplateContent } from './template.js';
import { TextContentSchema, type TextContent } from './text.js';

/**
 * A text message (1 to 4,096 characters).
 *
 * @example
 * text('Your order has shipped', { previewUrl: false });
 */
export function text(
  body: string,
  options: { previewUrl?: boolean | undefined } = {},
): TextContent {
  return build(TextContentSchema, {
    type: 'text',
    text: { body, ...opt('preview_url', options.previewUrl) },
  });
}

/**
 * An approved template by name and language code, with optional components.
 *
 * @example
 * template('order_update', 'en_US', [{ type: 'body', parameters: [{ type: 'text', text: 'Ann' }] }]);
 */
export function template(
  name: string,
  languageCode: string,
  components?: readonly TemplateComponent[],
): TemplateContent {
  return build(TemplateContentSchema, {
    type: 'template',
    template: { name, language: { code: languageCode }, ...opt('components', components) },
  });
}

/** Options of the captioned media builders. */
export interface CaptionOptions {
  /** Up to 1,024 characters. */
  readonly caption?: string | undefined;
}

/** An image by public HTTPS link (spec 4.5.1). */
export function image(link: string, options: CaptionOptions = {}): ImageContent {
  return build(ImageContentSchema, {
    type: 'image',
    image: { link, ...opt('caption', options.caption) },
  });
}

/** A video by public HTTPS link (spec 4.5.1). */
export function video(link: string, options: CaptionOptions = {}): VideoContent {
  return build(VideoContentSchema, {
    type: 'video',
    video: { link, ...opt('caption', options.caption) },
  });
}

/** An audio file by public HTTPS link (spec 4.5.1); audio has no caption. */
export function audio(link: string): AudioContent {
  return build(AudioContentSchema, { type: 'audio', audio: { link } });
}

/** A document by public HTTPS link (spec 4.5.1), with optional caption and filename (≤ 240). */
export function document(
  link: string,
  options: CaptionOptions & { readonly filename?: string | undefined } = {},
): DocumentContent {
  return build(DocumentContentSchema, {
    type: 'document',
    document: { link, ...opt('caption', options.caption), ...opt('filename', options.filename) },
  });
}

/**
 * A location (latitude -90..90, longitude -180..180).
 *
 * @example
 * location(52.52, 13.405, { name: 'Head office', address: 'Unter den Linden 1, Berlin' });
 */
export function location(
  latitude: number,
  longitude: number,
  options: { readonly name?: string | undefined; readonly address?: string | undefined } = {},
): LocationContent {
  return build(LocationContentSchema, {
    type: 'location',
    location: {
      latitude,
      longitude,
      ...opt('name', options.name),
      ...opt('address', options.address),
    },
  });
}

/** Input of {@link contact}: the name fields flat, the rest as in spec 4.5.3. */
export interface ContactCardInput {
  readonly formatted_name: string;
  readonly first_name?: string | undefined;
  readonly last_name?: string | undefined;
  readonly middle_name?: string | undefined;
  readonly prefix?: string | undefined;
  readonly suffix?: string | undefined;
  /** Up to 3; a string is shorthand for `{ phone }`. */
  readonly phones?:
    ReadonlyArray<string | { phone: string; type?: string; wa_id?: string }> | undefined;
  /** Up to 3; a string is shorthand for `{ email }`. */
  readonly emails?: ReadonlyArray<string | { email: string; type?: string }> | undefined;
  /** Up to 3; a string is shorthand for `{ url }`. */
  readonly urls?: ReadonlyArray<string | { url: string; type?: string }> | undefined;
  readonly org?: { company?: string; department?: string; title?: string } | undefined;
}

/**
 * A contact card message (exactly one card).
 *
 * @example
 * contact({ formatted_name: 'Ann Lee', phones: ['+14155550123'], emails: ['ann@example.com'] });
 */
export function contact(card: ContactCardInput): ContactsContent {
  const { phones, emails, urls, org, ...name } = card;
  const entries = Object.entries(name).filter(([, v]) => v !== undefined);
  return build(ContactsContentSchema, {
    type: 'contacts',
    contacts: [
      {
        name: Object.fromEntries(entries),
        ...opt(
          'phones',
          phones?.map((p) => (typeof p === 'string' ? { phone: p } : p)),
        ),
        ...opt(
          'emails',
          emails?.map((e) => (typeof e === 'string' ? { email: e } : e)),
        ),
        ...opt(
          'urls',
          urls?.map((u) => (typeof u === 'string' ? { url: u } : u)),
        ),
        ...opt('org', org),
      },
    ],
  });
}
