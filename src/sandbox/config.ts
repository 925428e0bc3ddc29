import { readFile } from 'node:fs/promises';
import { z } from 'zod';

/** The three scopes of spec part 5. */
export const Scope = z.enum(['messages:send', 'messages:read', 'media:read']);
export type Scope = z.infer<typeof Scope>;

/** Contact states that admission (spec 4.5.5) checks. */
export const ContactState = z.enum([
  'active',
  'unavailable',
  'opted_out',
  'instance_restricted',
  'marketing_restricted',
  'not_allowed',
]);
export type ContactState = z.infer<typeof ContactState>;

/** Sender quality rating: yellow blocks business-initiated templates, red blocks every send. */
export const Quality = z.enum(['green', 'yellow', 'red']);
export type Quality = z.infer<typeof Quality>;

/** A phone number in E.164 form: `+`, a non-zero digit, then 7 to 14 digits. */
export const E164 = z
  .string()
  .regex(/^\+[1-9]\d{7,14}$/, { error: 'must be an E.164 number like +15551234567' });

/** One business number. */
export const NumberConfigSchema = z.strictObject({
  id: z.string().min(1),
  phoneNumber: E164,
  /** `developer_api` lets the API handle the number; anything else is 409 instance_not_api_managed. */
  handling: z.enum(['developer_api', 'dashboard']).default('developer_api'),
  /** A disconnected sender answers 409 instance_unavailable. */
  connected: z.boolean().default(true),
  quality: Quality.default('green'),
});

/** One API key, bound to one number for life (spec part 5). */
export const KeyConfigSchema = z.strictObject({
  key: z.string().min(8),
  number: z.string().min(1),
  scopes: z.array(Scope).default(['messages:send', 'messages:read', 'media:read']),
  /** Rotated and revoked keys answer 401 invalid_api_key. */
  state: z.enum(['active', 'rotated', 'revoked']).default('active'),
});

/** One contact of the workspace. */
export const ContactConfigSchema = z.strictObject({
  phoneNumber: E164,
  name: z.string().min(1),
  state: ContactState.default('active'),
  /** Whether delivered messages are later read (deterministic; default true). */
  reads: z.boolean().default(true),
  /** When set, every accepted message to this contact fails with this code instead of being sent. */
  failureCode: z.string().min(1).optional(),
});

const ParamKind = z.enum(['text', 'currency', 'date_time', 'image', 'video', 'document']);

export const TemplateComponentConfig = z.strictObject({
  type: z.enum(['header', 'body', 'button']),
  /** Button index (a string, as in send requests). */
  index: z.string().optional(),
  sub_type: z.enum(['quick_reply', 'url', 'copy_code']).optional(),
  /** Declared parameter kinds, in order. */
  parameters: z.array(ParamKind).default([]),
  /** Display text with {{1}} placeholders (for emulators; not checked). */
  text: z.string().optional(),
});

/** One template of the business account (spec 4.5.4). */
export const TemplateConfigSchema = z.strictObject({
  name: z.string().min(1),
  language: z.string().min(2),
  number: z.string().min(1).optional(),
  status: z.enum(['approved', 'pending', 'rejected', 'paused']).default('approved'),
  category: z.enum(['marketing', 'utility', 'authentication']).default('utility'),
  quality: Quality.default('green'),
  components: z.array(TemplateComponentConfig).default([]),
});

const DeliveryConfig = z.strictObject({
  /** Offsets from acceptance, in sandbox-clock milliseconds. */
  sentAfterMs: z.number().int().nonnegative().default(1_000),
  deliveredAfterMs: z.number().int().nonnegative().default(2_000),
  readAfterMs: z.number().int().nonnegative().default(5_000),
  /** Inbound media pending -> ready after this long. */
  mediaReadyAfterMs: z.number().int().nonnegative().default(2_000),
});

/** Callback receiver and delivery policy. */
export const CallbackConfigSchema = z.strictObject({
  /** The receiver: an http or https URL (any other scheme, e.g. `javascript:`, is refused). */
  url: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }),
  secret: z.string().min(1),
  /** 0..1: share of callbacks delivered twice (at-least-once delivery, as in real life). */
  duplicateRate: z.number().min(0).max(1).default(0),
  /** Attempts per callback before giving up (exponential backoff between attempts). */
  maxAttempts: z.number().int().min(1).max(20).default(6),
  /** First retry delay in real milliseconds; doubles each attempt. */
  retryBaseMs: z.number().int().nonnegative().default(500),
  /** Per-attempt timeout in real milliseconds. */
  timeoutMs: z.number().int().positive().default(5_000),
});

/** The sandbox configuration file (JSON), validated with zod. */
export const SandboxConfigSchema = z.strictObject({
  workspace: z.string().min(1).default('ws_default'),
  numbers: z.array(NumberConfigSchema).min(1),
  keys: z.array(KeyConfigSchema).min(1),
  contacts: z.array(ContactConfigSchema).default([]),
  templates: z.array(TemplateConfigSchema).default([]),
  delivery: DeliveryConfig.default(DeliveryConfig.parse({})),
  callback: CallbackConfigSchema.optional(),
  /** Enforce the request budgets of spec part 8 (429 rate_limited). */
  rateLimits: z.boolean().default(true),
});
/** A parsed (effective) sandbox configuration. */
export type SandboxConfig = z.infer<typeof SandboxConfigSchema>;
/** A configuration as written in a file (defaults not yet applied). */
export type SandboxConfigInput = z.input<typeof SandboxConfigSchema>;
export type TemplateConfig = z.infer<typeof TemplateConfigSchema>;
export type ContactConfig = z.infer<typeof ContactConfigSchema>;
export type NumberConfig = z.infer<typeof NumberConfigSchema>;
export type KeyConfig = z.infer<typeof KeyConfigSchema>;
export type CallbackConfig = z.infer<typeof CallbackConfigSchema>;

/** The built-in configuration: one connected number, one key with every scope, contacts, templates. */
export const defaultSandboxConfig: SandboxConfig = SandboxConfigSchema.parse({
  numbers: [{ id: 'num_default', phoneNumber: '+15550000000' }],
  keys: [{ key: 'sk_sandbox_default_0123456789', number: 'num_default' }],
  contacts: [
    { phoneNumber: '+15551230001', name: 'Ada Lovelace' },
    { phoneNumber: '+15551230002', name: 'Grace Hopper' },
    { phoneNumber: '+15551230003', name: 'Alan Turing' },
  ],
  templates: [
    {
      name: 'hello_world',
      language: 'en',
      components: [{ type: 'body', text: 'Hello! How can we help you today?' }],
    },
    {
      name: 'appointment_reminder',
      language: 'en',
      components: [
        { type: 'body', parameters: ['text', 'date_time'], text: 'Hi {{1}}, see you on {{2}}.' },
      ],
    },
    {
      name: 'order_update',
      language: 'en',
      components: [
        { type: 'header', parameters: ['document'] },
        { type: 'body', parameters: ['text', 'currency'], text: 'Order {{1}} total {{2}}.' },
        { type: 'button', sub_type: 'url', index: '0', parameters: ['text'] },
      ],
    },
    { name: 'spring_sale', language: 'en', category: 'marketing', components: [{ type: 'body' }] },
    { name: 'pending_promo', language: 'en', status: 'pending', components: [{ type: 'body' }] },
  ],
});

/** Outcome of {@link parseSandboxConfig}. */
export type ConfigResult =
  | { readonly status: 'valid'; readonly config: SandboxConfig }
  | { readonly status: 'invalid'; readonly message: string };

/** Validates a configuration object, including references between numbers, keys and templates. */
export function parseSandboxConfig(input: unknown, source = 'sandbox config'): ConfigResult {
  const parsed = SandboxConfigSchema.safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${formatPath(i.path)}: ${i.message}`);
    return { status: 'invalid', message: `${source} is invalid:\n${lines.join('\n')}` };
  }
  const config = parsed.data;
  const numbers = new Set(config.numbers.map((n) => n.id));
  const problems: string[] = [];
  const duplicates = (label: string, values: readonly string[]): void => {
    values.forEach((v, i) => {
      const first = values.indexOf(v);
      if (first !== i) problems.push(`  ${label}[${i}]: duplicate of ${label}[${first}]`);
    });
  };
  duplicates(
    'numbers',
    config.numbers.map((n) => n.id),
  );
  duplicates(
    'keys',
    config.keys.map((k) => k.key),
  );
  duplicates(
    'contacts',
    config.contacts.map((c) => c.phoneNumber),
  );
  config.keys.forEach((k, i) => {
    if (!numbers.has(k.number)) problems.push(`  keys[${i}].number: unknown number "${k.number}"`);
  });
  config.templates.forEach((t, i) => {
    if (t.number !== undefined && !numbers.has(t.number)) {
      problems.push(`  templates[${i}].number: unknown number "${t.number}"`);
    }
  });
  if (problems.length > 0)
    return { status: 'invalid', message: `${source} is invalid:\n${problems.join('\n')}` };
  return { status: 'valid', config };
}

/** Reads and validates a JSON configuration file; errors name the file and the field path. */
export async function loadSandboxConfig(path: string): Promise<ConfigResult> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return { status: 'invalid', message: `cannot read ${path}: ${(error as Error).message}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { status: 'invalid', message: `${path} is not valid JSON: ${(error as Error).message}` };
  }
  return parseSandboxConfig(json, path);
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`))
    .join('');
}
