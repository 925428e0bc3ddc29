import type { Request, Response } from 'express';
import { readBudgetRules, sendBudgetRules } from '../api/budgets.js';
import { authorize, type Caller } from './auth.js';
import type { Scope } from './config.js';
import type { SandboxContext } from './context.js';
import { problem, sendProblem } from './problem.js';

/** Budget identity of a caller: counted by key, number and workspace. */
export function identityOf(ctx: SandboxContext, caller: Caller) {
  return {
    keyId: caller.keyId,
    numberId: caller.numberId,
    workspaceId: ctx.config.workspace,
  };
}

/**
 * Authenticates the request for `scope` and takes its request budget (spec 5 and 8).
 * Sends the error answer and returns undefined when the request may not proceed; on
 * success the RateLimit-* headers are already set.
 */
export function guard(
  ctx: SandboxContext,
  req: Request,
  res: Response,
  scope: Scope,
  budget: 'send' | 'read',
): Caller | undefined {
  const auth = authorize(ctx.config, req.get('authorization'), scope);
  if (auth.status === 'denied') {
    sendProblem(res, auth.problem);
    return undefined;
  }
  if (!ctx.config.rateLimits) return auth.caller;
  const id = identityOf(ctx, auth.caller);
  const rules = budget === 'send' ? sendBudgetRules(id) : readBudgetRules(id);
  const result = ctx.rate.take(rules, ctx.clock.now());
  if (result.status === 'limited') {
    sendProblem(
      res,
      problem(
        'rate_limited',
        `Request budget exceeded; retry after ${result.retryAfterSeconds} s.`,
        { retryAfterSeconds: result.retryAfterSeconds },
        result.headers,
      ),
    );
    return undefined;
  }
  res.set(result.headers);
  return auth.caller;
}
