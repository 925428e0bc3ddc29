import { z } from 'zod';
import { ContactInfoSchema, VarsSchema } from './schemas.js';

/**
 * The inbox item of an event from outside the conversation: `bot.notify(contact, name,
 * data)` (the flow's `on.<name>` rule handles it in any state) or `bot.start(contact,
 * flowId, vars)`. It is ordered with the contact's inbound messages and applied exactly
 * once like every other item (its id is `event:<caller's event id>`).
 */
export const ExternalEventPayloadSchema = z.object({
  kind: z.literal('event'),
  contact: ContactInfoSchema,
  event: z.discriminatedUnion('type', [
    z.object({ type: z.literal('notify'), name: z.string(), data: VarsSchema }),
    z.object({ type: z.literal('start'), flowId: z.string(), vars: VarsSchema }),
  ]),
});
export type ExternalEventPayload = z.infer<typeof ExternalEventPayloadSchema>;
