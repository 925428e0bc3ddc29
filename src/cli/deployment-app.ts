import express, { type Express, type Request, type Response, type Router } from 'express';
import type { Registry } from 'prom-client';
import { renderMerged } from '../metrics/merge-registries.js';
import type { NumberStatus } from '../deploy/number-unit.js';

/** What the deployment's HTTP app reads at each request (numbers come and go on reloads). */
export interface DeploymentAppOptions {
  readonly isDraining: () => boolean;
  /** The callback endpoint of each number, by path. */
  readonly callbacks: () => ReadonlyMap<string, Router>;
  /** Each number's status, for `/readyz`. */
  readonly statuses: () => readonly { readonly id: string; readonly status: NumberStatus }[];
  /** Registries rendered as one `/metrics` page (absent: no `/metrics` here). */
  readonly registries?: () => readonly Registry[];
}

/**
 * The HTTP app of a deployment: each number's callbacks on its own path (verified with
 * that number's secret by its bot's router), `GET /healthz`, `GET /readyz` (200 when no
 * number is still starting and at least one answers; the body names each number's state
 * and, for a failing one, why) and `GET /metrics` (every number's metrics, labelled
 * `number`). Routes are looked up per request, so a reload adds and removes paths.
 * @example
 * const app = createDeploymentApp({ isDraining, callbacks, statuses, registries });
 */
export function createDeploymentApp(options: DeploymentAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.get('/healthz', (_req, res) => {
    if (options.isDraining()) res.status(503).json({ status: 'draining' });
    else res.json({ status: 'ok' });
  });
  app.get('/readyz', (_req, res) => {
    const numbers = Object.fromEntries(options.statuses().map((n) => [n.id, n.status]));
    const states = Object.values(numbers).map((s) => s.state);
    const ready =
      !options.isDraining() && !states.includes('starting') && states.includes('running');
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ready' : 'not_ready',
      ...(options.isDraining() ? { reason: 'draining' } : {}),
      numbers,
    });
  });
  const registries = options.registries;
  if (registries !== undefined) {
    app.get('/metrics', async (_req, res) => {
      res.type('text/plain; version=0.0.4; charset=utf-8').send(await renderMerged(registries()));
    });
  }
  app.use((req: Request, res: Response, next) => {
    const router = options.callbacks().get(req.path);
    if (router === undefined) return next();
    if (options.isDraining()) {
      res
        .status(503)
        .set('Retry-After', '1')
        .json({ code: 'draining', message: 'this worker is shutting down; retry' });
      return;
    }
    // The bot's router serves its endpoint at `/` (as when mounted on its path).
    const url = req.url;
    req.url = `/${url.slice(req.path.length).replace(/^\//, '')}`;
    router(req, res, (error?: unknown) => {
      req.url = url;
      next(error);
    });
  });
  app.use((req: Request, res: Response) => {
    const paths = [...options.callbacks().keys()].join(', ');
    res.status(404).json({
      code: 'not_found',
      message: `no route ${req.method} ${req.path}; callbacks are served on ${paths === '' ? '(none)' : paths}`,
    });
  });
  return app;
}
