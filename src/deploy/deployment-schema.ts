import { z } from 'zod';
import { parseDuration } from '../core/duration.js';

/**
 * An environment variable name (`SALES_API_KEY`): upper case, digits and `_`. A value that
 * looks like a key or secret itself is refused (see {@link looksLikeSecret}): the file
 * names where a secret is, never holds one.
 */
const ENV_NAME = /^[A-Z_][A-Z0-9_]{0,63}$/;

/**
 * True when `value` looks like a credential rather than a variable name: lower-case or
 * mixed characters, `-`, `.`, `/`, `+`, `=` or a long run of random-looking characters.
 */
export function looksLikeSecret(value: string): boolean {
  if (!ENV_NAME.test(value)) return value.length >= 12 || /[a-z].*\d|\d.*[a-z]/.test(value);
  // All upper case, yet random: long, no word separator, many digits.
  const digits = value.replace(/\D/g, '').length;
  return value.length >= 20 && !value.includes('_') && digits >= 4;
}

/** A field naming an environment variable that holds a secret. */
function envName(what: string) {
  return z.string().superRefine((value, ctx) => {
    if (looksLikeSecret(value))
      ctx.addIssue({
        code: 'custom',
        message: `this looks like the ${what} itself; write the NAME of the environment variable that holds it (e.g. SALES_API_KEY), never the secret in the file`,
      });
    else if (!ENV_NAME.test(value))
      ctx.addIssue({
        code: 'custom',
        message: `"${value}" is not an environment variable name (A-Z, 0-9 and _, e.g. SALES_API_KEY)`,
      });
  });
}

const duration = (what: string, minMs: number) =>
  z.string().superRefine((value, ctx) => {
    const d = parseDuration(value);
    if (d.status === 'invalid' || d.ms < minMs)
      ctx.addIssue({
        code: 'custom',
        message: `${what} "${value}" must be a duration${minMs > 0 ? ` of at least ${minMs} ms` : ''}, e.g. 2s or 2h`,
      });
  });

/** A number's id: its label in logs, metrics, store keys and `--number`. */
export const NumberId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, {
  error: 'must be 1 to 40 characters a-z, 0-9, - and _, starting with a letter or digit',
});

/** One business number of a deployment. */
export const DeploymentNumberSchema = z.strictObject({
  /** The label of the number (never the key): logs, metrics, `--number`, store namespace. */
  id: NumberId,
  /** The bot, as `switchboard run <bot>` takes it; relative to the deployment file. */
  bot: z.string().min(1),
  /** The workspace of the number (the API does not say): numbers of one share its budget. */
  workspace: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, {
    error: 'must be 1 to 64 characters A-Z, a-z, 0-9, ., - and _',
  }),
  /** Name of the environment variable holding the number's API key. */
  apiKeyEnv: envName('API key'),
  /** Name of the environment variable holding the callback signing secret (callbacks only). */
  callbackSecretEnv: envName('callback secret').optional(),
  /** Where its callbacks arrive on `--port` (unique per number). */
  callbackPath: z
    .string()
    .regex(/^\/[A-Za-z0-9/_.-]*$/, {
      error: 'must be a path starting with /, e.g. /callbacks/sales',
    })
    .optional(),
  /** Poll interval, e.g. `2s` (one worker polls each number at a time). */
  poll: duration('poll', 100).optional(),
  /** On the number's first start, also answer unanswered messages up to this old. */
  backfill: duration('backfill', 0).optional(),
});
export type DeploymentNumber = z.infer<typeof DeploymentNumberSchema>;

/** A deployment file: `kind: deployment` and its numbers. */
export const DeploymentSchema = z
  .strictObject({
    kind: z.literal('deployment', {
      error: 'a deployment file starts with `kind: deployment`',
    }),
    numbers: z.array(DeploymentNumberSchema).min(1, { error: 'list at least one number' }),
  })
  .superRefine((d, ctx) => {
    const seen = new Map<string, number>();
    const paths = new Map<string, number>();
    d.numbers.forEach((n, i) => {
      const first = seen.get(n.id);
      if (first !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['numbers', i, 'id'],
          message: `id "${n.id}" is already used by numbers[${first}]`,
        });
      else seen.set(n.id, i);
      if (n.callbackPath !== undefined) {
        const other = paths.get(n.callbackPath);
        if (other !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: ['numbers', i, 'callbackPath'],
            message: `callback path ${n.callbackPath} is already used by numbers[${other}]; each number needs its own`,
          });
        else paths.set(n.callbackPath, i);
        if (n.callbackSecretEnv === undefined)
          ctx.addIssue({
            code: 'custom',
            path: ['numbers', i, 'callbackSecretEnv'],
            message: 'a number with a callbackPath needs callbackSecretEnv to verify its callbacks',
          });
      }
      if (n.poll === undefined && n.callbackPath === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['numbers', i],
          message: 'nothing to receive messages with: set poll (e.g. 2s) and/or callbackPath',
        });
    });
  });
/** A validated deployment file. */
export type Deployment = z.infer<typeof DeploymentSchema>;
