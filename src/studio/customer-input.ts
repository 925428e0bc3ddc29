import { z } from 'zod';
import type { InboundInput } from '../sandbox/index.js';

const Text = z.string().trim().min(1, 'type a message first').max(4096);

/** What the customer's composer sends (`POST /api/customers/:phone/send`). */
export const CustomerMessage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), text: Text }),
  z.strictObject({
    type: z.literal('tap'),
    optionId: z.string().min(1).max(256),
    title: z.string().max(100),
    list: z.boolean().optional(),
  }),
  z.strictObject({
    type: z.enum(['image', 'document']),
    filename: z.string().trim().min(1).max(240),
    mimeType: z.string().trim().min(1).max(120),
    /** The file, base64 (at most 5 MB decoded). */
    base64: z.base64().max(7_000_000),
    caption: z.string().max(1024).optional(),
  }),
  z.strictObject({
    type: z.literal('location'),
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    name: z.string().max(200).optional(),
  }),
  z.strictObject({
    type: z.literal('contact'),
    name: z.string().trim().min(1).max(100),
    phone: z
      .string()
      .regex(/^\+?[\d ()-]{4,20}$/, { error: 'phone: digits, spaces, ( ) and - only' }),
  }),
]);
export type CustomerMessage = z.infer<typeof CustomerMessage>;

/** The sandbox's inbound input for a composer message from `from`. */
export function toInbound(
  message: CustomerMessage,
  from: string,
  contactName: string,
): InboundInput {
  const common = { from, contactName };
  switch (message.type) {
    case 'text':
      return { ...common, type: 'text', text: message.text };
    case 'tap':
      return {
        ...common,
        type: 'interactive',
        optionId: message.optionId,
        label: message.title,
        mode: message.list === true ? 'LIST' : 'BUTTON',
      };
    case 'image':
    case 'document':
      return {
        ...common,
        type: message.type,
        ...(message.caption === undefined || message.caption === ''
          ? {}
          : { caption: message.caption }),
        media: {
          outcome: 'ready',
          readyAfterMs: 0,
          filename: message.filename,
          mimeType: message.mimeType,
          contentBase64: message.base64,
        },
      };
    case 'location':
      return {
        ...common,
        type: 'location',
        location: {
          latitude: message.latitude,
          longitude: message.longitude,
          ...(message.name === undefined ? {} : { name: message.name }),
        },
      };
    case 'contact':
      return {
        ...common,
        type: 'contacts',
        contacts: [{ name: message.name, phones: [message.phone] }],
      };
  }
}
