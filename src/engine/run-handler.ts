import { scheduleOn } from '../core/clock.js';
import type { ContactInfo, FlowEvent, Vars } from '../flows/contract.js';
import type { EngineDeps } from './engine-deps.js';
import type { ReadOnlyApi } from './types.js';
import { VarsSchema } from './schemas.js';

/** One `call` effect to run. */
export interface HandlerCall {
  readonly conversationId: string;
  readonly handler: string;
  readonly requestId: string;
  readonly input: Vars;
  readonly vars: Vars;
  readonly contact: ContactInfo;
  readonly timeoutMs: number;
}

/**
 * Runs a handler with a timeout and turns its result into the event the flow gets:
 * `handler.done`, or `handler.error` with reason `timeout`, `error` or
 * `unknown_outcome` (a result that is not `{ outcome: string, vars? }`). Never throws.
 */
export async function runHandler(deps: EngineDeps, call: HandlerCall): Promise<FlowEvent> {
  const base = { requestId: call.requestId, handler: call.handler };
  const handler = deps.handlers[call.handler];
  if (handler === undefined) {
    return {
      type: 'handler.error',
      ...base,
      reason: 'error',
      message: `no handler named "${call.handler}"`,
    };
  }
  const controller = new AbortController();
  const onStop = (): void => controller.abort(deps.stopSignal.reason);
  deps.stopSignal.addEventListener('abort', onStop, { once: true });
  const timeoutMs = call.timeoutMs > 0 ? call.timeoutMs : deps.handlerTimeoutMs;
  // On the engine's clock: the test kit's fake clock times a handler out when advanced.
  let cancelTimer: (() => void) | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    cancelTimer = scheduleOn(deps.clock, timeoutMs, () => resolve('timeout'));
  });
  const logger = deps.logger.child({ conversationId: call.conversationId, handler: call.handler });
  try {
    const running = Promise.resolve().then(() =>
      handler({
        input: call.input,
        vars: call.vars,
        contact: call.contact,
        conversationId: call.conversationId,
        api: readOnlyApi(deps),
        logger,
        signal: controller.signal,
      }),
    );
    // A late rejection after the timeout must not become an unhandled rejection.
    running.catch(() => undefined);
    const result = await Promise.race([running, timeout]);
    if (result === 'timeout') {
      controller.abort(new Error('handler timed out'));
      logger.warn('handler timed out', { timeoutMs });
      return {
        type: 'handler.error',
        ...base,
        reason: 'timeout',
        message: `timed out after ${timeoutMs} ms`,
      };
    }
    const outcome: unknown = Reflect.get(Object(result), 'outcome');
    const vars = VarsSchema.optional().safeParse(Reflect.get(Object(result), 'vars'));
    if (typeof outcome !== 'string' || !vars.success) {
      return {
        type: 'handler.error',
        ...base,
        reason: 'unknown_outcome',
        message:
          'handler result must be { outcome: string, vars?: Record<string, string | number | boolean | null> }',
      };
    }
    return vars.data === undefined
      ? { type: 'handler.done', ...base, outcome }
      : { type: 'handler.done', ...base, outcome, vars: vars.data };
  } catch (error) {
    logger.warn('handler failed', {
      error: error instanceof Error ? error.message : String(error),
    });
    return {
      type: 'handler.error',
      ...base,
      reason: 'error',
      message: error instanceof Error ? error.message : String(error),
    };
  } finally {
    cancelTimer?.();
    deps.stopSignal.removeEventListener('abort', onStop);
  }
}

/** The handlers' view of the client: reads and media downloads, never sends. */
function readOnlyApi(deps: EngineDeps): ReadOnlyApi {
  const client = deps.client;
  return {
    listConversations: (options) => client.listConversations(options),
    listMessages: (conversationId, options) => client.listMessages(conversationId, options),
    getMessage: (messageId) => client.getMessage(messageId),
    downloadMedia: (mediaId) =>
      client.downloadMedia === undefined
        ? Promise.reject(new Error("this bot's API client cannot download media"))
        : client.downloadMedia(mediaId),
  };
}
