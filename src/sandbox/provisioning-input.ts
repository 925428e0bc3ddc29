import { z } from 'zod';
import {
  ContactConfigSchema,
  ContactState,
  KeyConfigSchema,
  NumberConfigSchema,
  Quality,
  Scope,
  TemplateComponentConfig,
  TemplateConfigSchema,
} from './config.js';
import { SandboxControlError } from './control-error.js';

/** A key to add: `key` is generated (`sk_sandbox_…`) when left out. */
export const KeyInput = KeyConfigSchema.partial({ key: true });
export type KeyInput = z.input<typeof KeyInput>;
/** What may change on a key: its scopes and state (its number is bound for life, spec 5.2). */
export const KeyChange = z.strictObject({
  scopes: z.array(Scope).optional(),
  state: z.enum(['active', 'rotated', 'revoked']).optional(),
});
export type KeyChange = z.input<typeof KeyChange>;

export const NumberInput = NumberConfigSchema;
export type NumberInput = z.input<typeof NumberInput>;
export const NumberChange = z.strictObject({
  handling: z.enum(['developer_api', 'dashboard']).optional(),
  connected: z.boolean().optional(),
  quality: Quality.optional(),
});
export type NumberChange = z.input<typeof NumberChange>;

export const TemplateInput = TemplateConfigSchema;
export type TemplateInput = z.input<typeof TemplateInput>;
export const TemplateChange = z.strictObject({
  status: z.enum(['approved', 'pending', 'rejected', 'paused']).optional(),
  category: z.enum(['marketing', 'utility', 'authentication']).optional(),
  quality: Quality.optional(),
  components: z.array(TemplateComponentConfig).optional(),
});
export type TemplateChange = z.input<typeof TemplateChange>;
/** Which template: name and language, and its number when several numbers have one. */
export interface TemplateRef {
  readonly name: string;
  readonly language: string;
  readonly number?: string | undefined;
}

export const ContactInput = ContactConfigSchema;
export type ContactInput = z.input<typeof ContactInput>;
/** What may change on a contact; `failureCode: null` clears it. */
export const ContactChange = z.strictObject({
  name: z.string().min(1).optional(),
  state: ContactState.optional(),
  reads: z.boolean().optional(),
  failureCode: z.string().min(1).nullable().optional(),
});
export type ContactChange = z.input<typeof ContactChange>;

/** Validates control input with a schema; the error names each field path. */
export function parse<T extends z.ZodType>(schema: T, input: unknown, what: string): z.output<T> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new SandboxControlError(
    'invalid_request',
    `invalid ${what}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(value)'}: ${i.message}`).join('; ')}`,
  );
}
