import type { AddressInfo } from 'node:net';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { systemClock, type Clock } from '../core/clock.js';
import { silentLogger, type Logger } from '../log/logger.js';
import { CallbackDispatcher } from './callback-dispatcher.js';
import { defaultSandboxConfig, type SandboxConfig } from './config.js';
import type { SandboxContext } from './context.js';
import { createControl, type SandboxControl } from './control.js';
import { controlRouter } from './control-router.js';
import { CursorCodec } from './cursors.js';
import { runDueTransitions } from './delivery.js';
import { FaultInjector } from './faults.js';
import { malformedPathGuard } from './malformed-path.js';
import { MediaStreams } from './media-streams.js';
import { problem, sendProblem } from './problem.js';
import { RateCounter } from './rate.js';
import { readRoutes } from './read-routes.js';
import { SandboxClock } from './sandbox-clock.js';
import { sendRoute } from './send-route.js';
import { SandboxState } from './state.js';

export {
  defaultSandboxConfig,
  loadSandboxConfig,
  parseSandboxConfig,
  SandboxConfigSchema,
} from './config.js';
export type {
  SandboxConfig,
  SandboxConfigInput,
  ConfigResult,
  ContactState,
  Quality,
} from './config.js';
export { SandboxControlError } from './control.js';
export type {
  SandboxControl,
  ControlConversation,
  CallbackInput,
  MediaHoldControl,
  ResetScope,
} from './control.js';
export type {
  ProvisioningControl,
  KeyInput,
  KeyChange,
  NumberInput,
  NumberChange,
  TemplateInput,
  TemplateChange,
  TemplateRef,
  ContactInput,
  ContactChange,
} from './provisioning.js';
export type { MediaHoldView } from './media-streams.js';
export type { FaultInput } from './faults.js';
export type { InboundInput } from './inbound.js';
export type { SentRecord } from './model.js';
export type { CallbackAttempt } from './callback-dispatcher.js';

/** Options of {@link createSandbox}. */
export interface SandboxOptions {
  /** A parsed configuration (default: {@link defaultSandboxConfig}). */
  readonly config?: SandboxConfig;
  /** Base clock. A `ManualClock` is moved by `control.advance`; default: the wall clock plus an offset. */
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** Random source for callback duplicates (tests). */
  readonly random?: () => number;
  /** Interval of the background due-work tick in real ms (default 250; 0 disables it). */
  readonly tickMs?: number;
}

/** A running sandbox server's address. */
export interface SandboxServer {
  /** Base URL, e.g. `http://127.0.0.1:4010` (paths start with /v1). */
  readonly url: string;
  close(): Promise<void>;
}

/** A sandbox of the Messaging Developer API. */
export interface Sandbox {
  /** The express app (`/v1` API and `/sandbox` control). */
  readonly app: Express;
  /** In-process control, same operations as the `/sandbox` routes. */
  readonly control: SandboxControl;
  /** The effective configuration, keys included. */
  readonly config: SandboxConfig;
  /** The sandbox clock (base clock plus advances). */
  readonly clock: Clock;
  /** Starts an HTTP server (default: an ephemeral port on 127.0.0.1). */
  listen(port?: number, host?: string): Promise<SandboxServer>;
  /** Applies due status and media changes now. */
  runDue(): number;
  /** Stops background work, pending callback deliveries, and every server started by listen. */
  close(): Promise<void>;
}

/**
 * Creates an in-memory sandbox of the Messaging Developer API.
 * @example
 * const sandbox = createSandbox({ clock: new ManualClock() });
 * const { url } = await sandbox.listen();
 * const apiKey = sandbox.config.keys[0]!.key;
 * sandbox.control.injectInbound({ type: 'text', from: '+15551230001', text: 'hi' });
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const config = structuredClone(options.config ?? defaultSandboxConfig);
  const logger = options.logger ?? silentLogger;
  const clock = new SandboxClock(options.clock ?? systemClock);
  const state = new SandboxState(config);
  const callbacks = new CallbackDispatcher(
    state,
    clock,
    options.clock ?? systemClock,
    logger,
    options.random,
  );
  callbacks.configure(config.callback);
  const ctx: SandboxContext = {
    config,
    state,
    clock,
    logger,
    cursors: new CursorCodec(),
    rate: new RateCounter(),
    faults: new FaultInjector(),
    callbacks,
    mediaStreams: new MediaStreams(),
    runDue: () => runDueTransitions(state, clock.now()),
  };
  const control = createControl(ctx);
  const app = buildApp(ctx, control);

  const tickMs = options.tickMs ?? 250;
  const tick = tickMs > 0 ? setInterval(() => ctx.runDue(), tickMs) : undefined;
  tick?.unref();
  const servers = new Set<SandboxServer>();

  return {
    app,
    control,
    config,
    clock,
    runDue: () => ctx.runDue(),
    listen(port = 0, host = '127.0.0.1') {
      return new Promise((resolve, reject) => {
        const server = app.listen(port, host, (error?: Error) => {
          if (error !== undefined) return reject(error);
          const { port: bound } = server.address() as AddressInfo;
          const urlHost = host.includes(':') ? `[${host}]` : host;
          const handle: SandboxServer = {
            url: `http://${urlHost}:${bound}`,
            close: () =>
              new Promise<void>((done) => {
                servers.delete(handle);
                server.close(() => done());
                server.closeAllConnections();
              }),
          };
          servers.add(handle);
          resolve(handle);
        });
      });
    },
    async close() {
      if (tick !== undefined) clearInterval(tick);
      callbacks.close();
      ctx.faults.clear();
      ctx.mediaStreams.releaseAll();
      await Promise.all([...servers].map((s) => s.close()));
    },
  };
}

function buildApp(ctx: SandboxContext, control: SandboxControl): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(
    '/v1',
    ctx.faults.middleware(),
    (_req, _res, next) => {
      ctx.runDue();
      next();
    },
    malformedPathGuard(ctx),
  );
  app.use('/v1', readRoutes(ctx), sendRoute(ctx));
  app.use('/sandbox', controlRouter(ctx, control));
  app.use('/dashboard', (req, res) => {
    if (req.get('authorization') !== undefined) {
      return sendProblem(
        res,
        problem('api_key_not_allowed', 'Dashboard routes are not API-key routes.'),
      );
    }
    res.status(404).json({ code: 'not_found', message: 'The sandbox has no dashboard routes.' });
  });
  app.use((_req: Request, res: Response) => {
    res
      .status(404)
      .json({ code: 'not_found', message: 'No such route; API routes start with /v1.' });
  });
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: unknown } | undefined)?.status;
    if (typeof status === 'number' && status >= 400 && status < 500 && !res.headersSent) {
      // A client error raised by express itself (e.g. a path escape in a control route).
      res.status(status).json({
        code: 'invalid_request',
        message: error instanceof Error ? error.message : 'The request is not valid.',
      });
      return;
    }
    ctx.logger.error('sandbox route failed', {
      error: error instanceof Error ? error.message : String(error),
    });
    if (res.headersSent) return;
    res
      .status(500)
      .json({ code: 'internal_error', message: 'The sandbox failed to handle this request.' });
  });
  return app;
}
export type { InboxControl, MediaBytes } from './control-inbox.js';
