import { z } from 'zod';
import type { Understander } from '../understand/types.js';
import type { Vars } from '../flows/contract.js';
import type { Logger } from '../log/logger.js';
import type { SandboxConfigInput } from '../sandbox/index.js';
import { LOG_LEVELS, type LogLevel } from './log-capture.js';

/** The contact you play in a test conversation. */
export interface TestContact {
  /** E.164 phone number (default `+15551230001`, Ada Lovelace in the sandbox). */
  readonly phone?: string;
  /** The contact's profile name (`{{contact.name}}`); default: the sandbox's name for it. */
  readonly name?: string;
  /**
   * The contact's language, set in contact memory as `contact.locale` before the first
   * message: a flow with `locales` speaks it from the first message (`es`, `es-MX`, `es_MX`).
   */
  readonly locale?: string;
  /**
   * Contact memory set up front: the `contact.<name>` values flows read and remember
   * across conversations (e.g. `{ tier: 'gold' }` for `{{contact.tier}}`).
   */
  readonly memory?: Readonly<Vars>;
}

/** Options of `createTestConversation`. */
export interface TestConversationOptions {
  /**
   * Id of the flow a new conversation enters, when the bot has several: it overrides
   * `defineBot({ entry })` (default: the bot's entry flow, i.e. its first flow).
   */
  readonly flow?: string;
  /** The contact you play (default: Ada Lovelace, +15551230001). */
  readonly contact?: TestContact;
  /**
   * The fake clock's start time: a `Date`, epoch milliseconds or an ISO 8601 string
   * (default `2026-03-02T09:00:00Z`). Not a flow: to choose the first flow use `flow`.
   */
  readonly start?: number | string | Date;
  /** Extra sandbox configuration (contacts, templates, delivery…), merged over the defaults. */
  readonly sandbox?: Partial<SandboxConfigInput>;
  /**
   * How long (real ms) `say`, `tap`… wait for a handler that has not answered before they
   * return with the call still running (default 1,000). Its timeout runs on the fake
   * clock: `advance('10s')` then times it out and the flow takes `onTimeout`.
   */
  readonly handlerWaitMs?: number;
  /** Lowest level `chat.logs()` keeps (default `debug`: every line). */
  readonly logLevel?: LogLevel;
  /** A logger that receives every bot log line too (e.g. `createLogger({ format: 'pretty' })`). */
  readonly logger?: Logger;
  /** Understands free text instead of the bot's understander (e.g. `scripted({...})`). */
  readonly understander?: Understander;
}

/** The options after validation, with defaults applied. */
export interface ParsedTestOptions {
  readonly flow: string | undefined;
  readonly contact: {
    readonly phone: string;
    readonly name: string | undefined;
    readonly memory: Vars;
  };
  readonly startMs: number;
  readonly sandbox: Partial<SandboxConfigInput>;
  readonly handlerWaitMs: number;
  readonly logLevel: LogLevel;
  readonly logger: Logger | undefined;
  readonly understander: Understander | undefined;
}

const DEFAULT_START = Date.parse('2026-03-02T09:00:00.000Z');
const DEFAULT_PHONE = '+15551230001';
const START_HELP =
  'start is the fake clock\'s start time (a Date, epoch ms or ISO string such as "2026-03-02T09:00:00Z"); to choose the flow a new conversation enters, use `flow`';

const timeOf = (value: number | string | Date): number =>
  value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);

const isLogger = (value: unknown): value is Logger =>
  typeof value === 'object' &&
  value !== null &&
  ['error', 'warn', 'info', 'debug', 'child'].every(
    (k) => typeof Reflect.get(value, k) === 'function',
  );

const VarValue = z.union([z.string(), z.number(), z.boolean(), z.null()], {
  error: 'a memory value is a string, number, boolean or null',
});

const OptionsSchema = z.strictObject({
  flow: z.string({ error: 'flow is the id of a flow of the bot (a string)' }).min(1).optional(),
  contact: z
    .strictObject(
      {
        phone: z
          .string()
          .regex(/^\+[1-9]\d{7,14}$/, {
            error: 'phone must be an E.164 number like +15551230001',
          })
          .optional(),
        name: z.string().min(1).optional(),
        locale: z
          .string()
          .regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/, {
            error: 'locale must be a language tag such as "es" or "pt-BR"',
          })
          .optional(),
        memory: z.record(z.string().min(1), VarValue).optional(),
      },
      { error: 'contact is an object { phone?, name?, locale?, memory? }' },
    )
    .optional(),
  start: z
    .union([z.number(), z.string(), z.date()], { error: START_HELP })
    .refine((v) => Number.isFinite(timeOf(v)), { error: START_HELP })
    .optional(),
  // Checked field by field by the sandbox itself (parseSandboxConfig), with paths.
  sandbox: z
    .custom<Partial<SandboxConfigInput>>(
      (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
      {
        error: 'sandbox is an object of sandbox configuration (contacts, templates, …)',
      },
    )
    .optional(),
  handlerWaitMs: z.number().int().nonnegative().optional(),
  logLevel: z.enum(LOG_LEVELS).optional(),
  logger: z
    .custom<Logger>(isLogger, { error: 'logger must have error, warn, info, debug and child' })
    .optional(),
  understander: z
    .custom<Understander>(
      (v) =>
        typeof v === 'object' &&
        v !== null &&
        typeof Reflect.get(v, 'name') === 'string' &&
        typeof Reflect.get(v, 'understand') === 'function',
      {
        error: 'understander must have a name and an understand() function (e.g. scripted({...}))',
      },
    )
    .optional(),
});

/**
 * Validates `createTestConversation`'s options and applies their defaults; throws a
 * `TypeError` naming each wrong option by its path (`options.contact.locale: …`).
 */
export function parseTestOptions(options: unknown): ParsedTestOptions {
  const parsed = OptionsSchema.safeParse(options ?? {});
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (i) => `- ${['options', ...i.path.map(String)].join('.')}: ${i.message}`,
    );
    throw new TypeError(`createTestConversation: invalid options\n${lines.join('\n')}`);
  }
  const o = parsed.data;
  const memory: Vars = { ...o.contact?.memory };
  if (o.contact?.locale !== undefined) memory['locale'] = o.contact.locale;
  return {
    flow: o.flow,
    contact: { phone: o.contact?.phone ?? DEFAULT_PHONE, name: o.contact?.name, memory },
    startMs: o.start === undefined ? DEFAULT_START : timeOf(o.start),
    sandbox: o.sandbox ?? {},
    handlerWaitMs: o.handlerWaitMs ?? 1_000,
    logLevel: o.logLevel ?? 'debug',
    logger: o.logger,
    understander: o.understander,
  };
}
