import type { Handler, HandlerContext, HandlerResult } from '../engine/types.js';

/** A handler that declares its outcomes (and the variables it sets). */
export type DeclaredHandler<O extends string = string> = Handler & {
  readonly outcomes: readonly O[];
  readonly sets?: readonly string[];
};

/**
 * Declares a handler with its outcomes: TypeScript checks that it returns only those,
 * and `validate` (and `createTestConversation`, `dev`, `run` when they load the bot)
 * checks that every `call` of it routes exactly these outcomes.
 * @example
 * export const quote = defineHandler({ outcomes: ['ok', 'tooFar'] }, async ({ input }) =>
 *   Number(input.km) > 50 ? { outcome: 'tooFar' } : { outcome: 'ok', vars: { price: 12 } });
 */
export function defineHandler<const O extends string>(
  spec: { readonly outcomes: readonly O[]; readonly sets?: readonly string[] },
  fn: (
    ctx: HandlerContext,
  ) => (HandlerResult & { readonly outcome: O }) | Promise<HandlerResult & { readonly outcome: O }>,
): DeclaredHandler<O> {
  if (spec.outcomes.length === 0)
    throw new TypeError('defineHandler: declare at least one outcome');
  const handler: Handler = (ctx) => fn(ctx);
  return Object.assign(handler, {
    outcomes: [...spec.outcomes],
    ...(spec.sets === undefined ? {} : { sets: [...spec.sets] }),
  });
}

/** What the linter knows of a bot's handlers: their names and declared outcomes. */
export function handlerInfo(
  handlers: Readonly<Record<string, Handler>>,
): Record<string, { readonly outcomes?: readonly string[] }> {
  const out: Record<string, { outcomes?: readonly string[] }> = {};
  for (const [name, h] of Object.entries(handlers)) {
    const outcomes: unknown = (h as Partial<DeclaredHandler>).outcomes;
    out[name] =
      Array.isArray(outcomes) && outcomes.every((o) => typeof o === 'string')
        ? { outcomes: outcomes }
        : {};
  }
  return out;
}
