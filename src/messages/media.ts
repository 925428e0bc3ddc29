/**
 * Media content objects (spec 4.5): image, video, audio and document, each sent by
 * public HTTPS link (4.5.1). Captions up to 1,024 characters (not on audio); document
 * filename up to 240.
 */
import { z } from 'zod';
import { LIMITS } from '../core/limits.js';
import { limitedString } from './fields.js';
import { MediaLinkSchema } from './media-link.js';

const caption = limitedString({ label: 'Caption', max: LIMITS.caption, spec: '4.5' });

/** `image` content object. */
export const ImageObjectSchema = z.strictObject({
  link: MediaLinkSchema,
  caption: caption.optional(),
});
/** `video` content object. */
export const VideoObjectSchema = z.strictObject({
  link: MediaLinkSchema,
  caption: caption.optional(),
});
/** `audio` content object (no caption). */
export const AudioObjectSchema = z.strictObject({ link: MediaLinkSchema });
/** `document` content object. */
export const DocumentObjectSchema = z.strictObject({
  link: MediaLinkSchema,
  caption: caption.optional(),
  filename: limitedString({
    label: 'Document filename',
    max: LIMITS.documentFilename,
    spec: '4.5',
  }).optional(),
});

/** `{ type: 'image', image: { link, caption? } }`. */
export const ImageContentSchema = z.strictObject({
  type: z.literal('image'),
  image: ImageObjectSchema,
});
/** `{ type: 'video', video: { link, caption? } }`. */
export const VideoContentSchema = z.strictObject({
  type: z.literal('video'),
  video: VideoObjectSchema,
});
/** `{ type: 'audio', audio: { link } }`. */
export const AudioContentSchema = z.strictObject({
  type: z.literal('audio'),
  audio: AudioObjectSchema,
});
/** `{ type: 'document', document: { link, caption?, filename? } }`. */
export const DocumentContentSchema = z.strictObject({
  type: z.literal('document'),
  document: DocumentObjectSchema,
});

/** Image content. */
export type ImageContent = z.infer<typeof ImageContentSchema>;
/** Video content. */
export type VideoContent = z.infer<typeof VideoContentSchema>;
/** Audio content. */
export type AudioContent = z.infer<typeof AudioContentSchema>;
/** Document content. */
export type DocumentContent = z.infer<typeof DocumentContentSchema>;
