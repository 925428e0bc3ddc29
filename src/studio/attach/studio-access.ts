import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { NextFunction, Request, Response } from 'express';

/** Tokens shorter than this are refused (a guessable token protects nothing). */
export const MIN_TOKEN_LENGTH = 16;

/** The cookie that carries the studio session once the token was presented. */
export const SESSION_COOKIE = 'switchboard_studio';

/** Who may open the studio: the address it binds to and the token it asks for. */
export interface StudioAccess {
  readonly host: string;
  /** Every request must present it (when set). Never logged, never printed. */
  readonly token: string | undefined;
}

/** Outcome of {@link resolveStudioAccess}. */
export type StudioAccessResult =
  | { readonly status: 'ok'; readonly access: StudioAccess }
  | { readonly status: 'invalid'; readonly message: string };

/** True for an address only this machine can reach (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  return mapped?.[1] !== undefined && mapped[1].startsWith('127.');
}

/**
 * The bind and token rules of the studio: it binds to 127.0.0.1 unless `--host` says
 * otherwise, and a host other machines can reach REQUIRES a token (`--token`, else
 * `STUDIO_TOKEN`) of at least {@link MIN_TOKEN_LENGTH} characters. A token given on
 * loopback is enforced too.
 * @example
 * resolveStudioAccess({ host: '0.0.0.0' }, {}); // invalid: needs a token
 */
export function resolveStudioAccess(
  flags: { readonly host?: string | undefined; readonly token?: string | undefined },
  env: Readonly<Record<string, string | undefined>>,
): StudioAccessResult {
  const host = flags.host?.trim() || '127.0.0.1';
  const fromEnv = env['STUDIO_TOKEN']?.trim();
  const token = flags.token ?? (fromEnv === '' ? undefined : fromEnv);
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH)
    return {
      status: 'invalid',
      message: `the studio token (${flags.token === undefined ? 'STUDIO_TOKEN' : '--token'}) must be at least ${MIN_TOKEN_LENGTH} characters (use a random secret, e.g. openssl rand -hex 24)`,
    };
  if (token === undefined && !isLoopback(host))
    return {
      status: 'invalid',
      message: `--host ${host} lets other machines reach the studio: it needs a token; pass --token <secret> or set STUDIO_TOKEN (at least ${MIN_TOKEN_LENGTH} characters), or bind to 127.0.0.1`,
    };
  return { status: 'ok', access: { host, token } };
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** Equal strings, compared in constant time (both hashed first: lengths do not leak). */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** The session cookie's value for a token: derived, so the cookie never holds the token. */
export function sessionValue(token: string): string {
  return createHmac('sha256', token).update('switchboard studio session').digest('hex');
}

function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Express middleware that lets a request through only with the token: as
 * `Authorization: Bearer <token>`, as the session cookie, or as `?token=` on a page load
 * (which sets the cookie and redirects to the same address without the token, so the page,
 * its modules and its live event stream carry the cookie). Anything else answers 401.
 */
export function requireToken(
  token: string,
): (req: Request, res: Response, next: NextFunction) => void {
  const session = sessionValue(token);
  return (req, res, next) => {
    const auth = req.headers.authorization;
    if (auth?.startsWith('Bearer ') === true && sameSecret(auth.slice(7).trim(), token))
      return next();
    const cookie = cookieOf(req, SESSION_COOKIE);
    if (cookie !== undefined && sameSecret(cookie, session)) return next();
    const query = req.query['token'];
    if (req.method === 'GET' && typeof query === 'string' && sameSecret(query, token)) {
      const url = new URL(req.originalUrl, 'http://studio.invalid');
      url.searchParams.delete('token');
      res.cookie(SESSION_COOKIE, session, { httpOnly: true, sameSite: 'strict', path: '/' });
      res.set('Cache-Control', 'no-store');
      res.set('Referrer-Policy', 'no-referrer');
      return void res.redirect(303, `${url.pathname}${url.search}`);
    }
    res.set('WWW-Authenticate', 'Bearer realm="switchboard studio"');
    res.status(401).json({
      error:
        'this studio needs its token: open it as http://<host>:<port>/?token=<token> or send Authorization: Bearer <token>',
    });
  };
}
