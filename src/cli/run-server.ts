import { createServer, type RequestListener, type Server } from 'node:http';
import express, {
  type Express,
  type NextFunction,
  type Request,
  type Response,
  type Router,
} from 'express';
import type { Registry } from 'prom-client';
import { postListenerOf } from '../ingest/express-adapter.js';

/** Whether a worker can take work, as `/readyz` reports it. */
export type Readiness =
  { readonly status: 'ready' } | { readonly status: 'not_ready'; readonly reason: string };

/** What the operational endpoints read. */
export interface RunProbe {
  /** True from the first shutdown signal on: `/healthz` and `/readyz` answer 503. */
  isDraining(): boolean;
  /** Checks the bot started and the store answers (Redis PING). */
  readiness(): Promise<Readiness>;
  /** Served as `/metrics` when present. */
  readonly registry?: Registry;
}

/** Options of {@link createRunApp}. */
export interface RunAppOptions {
  readonly probe: RunProbe;
  /** The callback endpoint, when this server receives callbacks. */
  readonly callbacks?: { readonly path: string; readonly router: Router };
  /** `POST /events` (bearer `EVENTS_TOKEN`), when enabled. */
  readonly events?: Router;
}

/**
 * The HTTP app of `switchboard run`: `GET /healthz` (200 `{status:'ok'}` while
 * serving, 503 `{status:'draining'}` on shutdown), `GET /readyz` (200 when the bot
 * started and the store answers, else 503 with a reason), `GET /metrics` (Prometheus
 * text) and the callback endpoint, which answers 503 while draining so the API
 * redelivers the callback to another worker. A `POST` to the callback path itself (the
 * hot path: one per inbound message and three per send) is answered without express
 * when the router is `bot.callbackRouter()`; everything else goes through express.
 * @example
 * const app = createRunApp({ probe, callbacks: { path: '/callbacks', router: bot.callbackRouter() } });
 */
export function createRunApp(options: RunAppOptions): RequestListener {
  const app = createExpressApp(options);
  const post =
    options.callbacks === undefined ? undefined : postListenerOf(options.callbacks.router);
  if (options.callbacks === undefined || post === undefined) return app;
  const { path } = options.callbacks;
  const withQuery = `${path}?`;
  const { probe } = options;
  return (req, res) => {
    const url = req.url ?? '';
    // Exactly the endpoint (a query string aside, as express ignores it); other spellings
    // (a trailing slash, another case), other methods and draining take express's way.
    if (
      req.method === 'POST' &&
      (url === path || url.startsWith(withQuery)) &&
      !probe.isDraining()
    ) {
      post(req, res).catch(() => res.destroy());
      return;
    }
    app(req, res);
  };
}

function createExpressApp(options: RunAppOptions): Express {
  const { probe, callbacks, events } = options;
  const app = express();
  app.disable('x-powered-by');
  // Every path this app serves and its method, for JSON 404/405 answers.
  const routes = new Map<string, string>([
    ['/healthz', 'GET'],
    ['/readyz', 'GET'],
  ]);
  if (probe.registry !== undefined) routes.set('/metrics', 'GET');
  if (callbacks !== undefined) routes.set(callbacks.path, 'POST');
  if (events !== undefined) routes.set('/events', 'POST');
  app.get('/healthz', (_req, res) => {
    if (probe.isDraining()) res.status(503).json({ status: 'draining' });
    else res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const ready: Readiness = probe.isDraining()
      ? { status: 'not_ready', reason: 'draining' }
      : await probe.readiness();
    res.status(ready.status === 'ready' ? 200 : 503).json(ready);
  });
  const registry = probe.registry;
  if (registry !== undefined) {
    app.get('/metrics', async (_req, res) => {
      res.type(registry.contentType).send(await registry.metrics());
    });
  }
  if (callbacks !== undefined) {
    app.use(callbacks.path, (_req, res, next) => {
      if (!probe.isDraining()) return next();
      res
        .status(503)
        .set('Retry-After', '1')
        .json({ code: 'draining', message: 'this worker is shutting down; retry' });
    });
    app.use(callbacks.path, callbacks.router);
  }
  if (events !== undefined) {
    app.use('/events', (_req, res, next) => {
      if (!probe.isDraining()) return next();
      res.status(503).set('Retry-After', '1').json({
        code: 'draining',
        message: 'this worker is shutting down; retry with the same id',
      });
    });
    app.use('/events', events);
  }
  app.use((req: Request, res: Response) => {
    const allowed = routes.get(req.path);
    if (
      allowed !== undefined &&
      allowed !== req.method &&
      !(allowed === 'GET' && req.method === 'HEAD')
    ) {
      res
        .status(405)
        .set('Allow', allowed)
        .json({ code: 'method_not_allowed', message: `${req.method} ${req.path}: use ${allowed}` });
      return;
    }
    res.status(404).json({
      code: 'not_found',
      message: `no route ${req.method} ${req.path}; this server answers ${[...routes].map(([path, method]) => `${method} ${path}`).join(', ')}`,
    });
  });
  // Last resort: a JSON envelope, never express's HTML error page or a stack trace.
  app.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    const status =
      typeof err === 'object' && err !== null && 'status' in err && typeof err.status === 'number'
        ? err.status
        : 500;
    const client = status >= 400 && status < 500;
    res.status(client ? status : 500).json({
      code: client ? 'bad_request' : 'internal_error',
      message: client ? 'the request could not be read' : 'internal error',
    });
  });
  return app;
}

/**
 * Time limits of the HTTP servers of `switchboard run`: a client that sends its headers
 * or its body too slowly is cut off instead of holding a connection.
 */
export interface ServerTimeouts {
  /** Until the request headers are complete (default 5,000 ms). */
  readonly headersMs: number;
  /** Until the whole request is received (default 10,000 ms). */
  readonly requestMs: number;
  /** Idle keep-alive connections are closed after this (default 5,000 ms). */
  readonly keepAliveMs: number;
  /** How often the limits are checked (default 1,000 ms; Node's own default is 30 s). */
  readonly checkEveryMs: number;
}

export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = {
  headersMs: 5_000,
  requestMs: 10_000,
  keepAliveMs: 5_000,
  checkEveryMs: 1_000,
};

/** A listening server and the URL it answers on. */
export interface Listening {
  readonly server: Server;
  /** `http://<host>:<port>` (a wildcard host is shown as loopback). */
  readonly url: string;
}

/**
 * Listens on `host:port` (port 0: any free port); rejects with the OS error.
 * @example
 * const { url } = await listenOn(app, '127.0.0.1', 0);
 */
export function listenOn(
  app: RequestListener,
  host: string,
  port: number,
  timeouts: ServerTimeouts = DEFAULT_SERVER_TIMEOUTS,
): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = createServer(
      {
        headersTimeout: timeouts.headersMs,
        requestTimeout: timeouts.requestMs,
        keepAliveTimeout: timeouts.keepAliveMs,
        connectionsCheckingInterval: timeouts.checkEveryMs,
      },
      app,
    );
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      if (address === null || typeof address === 'string')
        return reject(new Error(`unexpected server address ${String(address)}`));
      const shown =
        host === '0.0.0.0'
          ? '127.0.0.1'
          : host === '::'
            ? '[::1]'
            : host.includes(':')
              ? `[${host}]`
              : host;
      resolve({ server, url: `http://${shown}:${address.port}` });
    });
  });
}

/** Closes a server: stops accepting, lets in-flight requests finish, drops idle keep-alives. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
