import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router, type Response } from 'express';

/** The page's own files (HTML, JS modules, CSS), next to this file. */
const WEB_DIR = fileURLToPath(new URL('./web/', import.meta.url));
const WEB_FILES = [
  'index.html',
  'app.js',
  'api.js',
  'phone.js',
  'inbox.js',
  'flow-panel.js',
  'composer.js',
  'icons.js',
  'studio.css',
];

/** Libraries served from node_modules: URL name → package and file inside it. */
const VENDOR: Readonly<Record<string, readonly [string, string]>> = {
  'preact.mjs': ['preact', 'dist/preact.mjs'],
  'hooks.mjs': ['preact', 'hooks/dist/hooks.mjs'],
  'htm.mjs': ['htm', 'dist/htm.module.js'],
  'htm-preact.mjs': ['htm', 'preact/index.module.js'],
  'mermaid.min.js': ['mermaid', 'dist/mermaid.min.js'],
};

const TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

/** The folder of an installed package (found from its entry point, whatever its exports allow). */
export function packageRoot(name: string): string {
  const require = createRequire(import.meta.url);
  let dir = dirname(require.resolve(name));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const parsed: unknown = JSON.parse(readFileSync(manifest, 'utf8'));
      if (typeof parsed === 'object' && parsed !== null && 'name' in parsed && parsed.name === name)
        return dir;
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find the folder of package ${name}`);
    dir = up;
  }
}

/**
 * Serves the studio page: `/` (the HTML), `/app/*` (its modules and CSS) and `/vendor/*`
 * (preact, htm, mermaid from node_modules). Nothing comes from the internet.
 */
export function studioAssets(): Router {
  const router = Router();
  const vendor = new Map<string, string>();
  for (const [file, [pkg, inside]] of Object.entries(VENDOR))
    vendor.set(file, join(packageRoot(pkg), inside));
  const send = (res: Response, path: string, maxAge: number): void => {
    const ext = path.slice(path.lastIndexOf('.') + 1);
    res.set('Content-Type', TYPES[ext] ?? 'application/octet-stream');
    res.set('Cache-Control', maxAge === 0 ? 'no-cache' : `public, max-age=${maxAge}`);
    res.set('X-Content-Type-Options', 'nosniff');
    res.send(readFileSync(path));
  };
  router.get('/', (_req, res) => send(res, join(WEB_DIR, 'index.html'), 0));
  router.get('/favicon.ico', (_req, res) => void res.status(204).end());
  router.get('/app/:file', (req, res, next) => {
    const file = String(req.params['file']);
    if (!WEB_FILES.includes(file)) return next();
    send(res, join(WEB_DIR, file), 0);
  });
  router.get('/vendor/:file', (req, res, next) => {
    const path = vendor.get(String(req.params['file']));
    if (path === undefined) return next();
    send(res, path, 3600);
  });
  return router;
}
