/**
 * A fault's route pattern, parsed once: `*` (every API route) or `METHOD /v1/...`
 * where METHOD is GET, POST or `*`, and each path segment is a literal, a `:name`
 * parameter (exactly one segment) or, as the last segment only, `*` (any rest,
 * including nothing). Matching compares segment by segment: linear in the path's
 * length, no regular expression built from user input, no backtracking.
 */
export interface RoutePattern {
  /** undefined: any method. */
  readonly method: string | undefined;
  /** undefined: any path. */
  readonly segments: readonly Segment[] | undefined;
  /** True when the last pattern segment was `*`. */
  readonly rest: boolean;
}

type Segment = { readonly kind: 'literal'; readonly text: string } | { readonly kind: 'param' };

/** Outcome of {@link parseRoutePattern}. */
export type RoutePatternResult =
  | { readonly status: 'valid'; readonly pattern: RoutePattern }
  | { readonly status: 'invalid'; readonly message: string };

/** Longest accepted pattern, in characters. */
export const MAX_ROUTE_PATTERN_LENGTH = 300;

/**
 * Parses a route pattern.
 * @example
 * parseRoutePattern('GET /v1/media/:id'); // GET, [media, param]
 * parseRoutePattern('* /v1/*'); // every method, every /v1 path
 */
export function parseRoutePattern(route: string): RoutePatternResult {
  const invalid = (why: string): RoutePatternResult => ({
    status: 'invalid',
    message: `route "${route.slice(0, 80)}" ${why}; use "*" or "<GET|POST|*> /v1/<segments>" with :param segments and an optional final /*`,
  });
  if (route.length > MAX_ROUTE_PATTERN_LENGTH)
    return invalid(`is longer than ${MAX_ROUTE_PATTERN_LENGTH} characters`);
  if (route === '*')
    return { status: 'valid', pattern: { method: undefined, segments: undefined, rest: true } };
  const space = route.indexOf(' ');
  if (space < 0) return invalid('has no method');
  const method = route.slice(0, space);
  const path = route.slice(space + 1);
  if (method !== 'GET' && method !== 'POST' && method !== '*')
    return invalid('has an unknown method');
  if (!path.startsWith('/v1/') && path !== '/v1') return invalid('does not start with /v1/');
  const parts = path.split('/').slice(2);
  if (parts.at(-1) === '') parts.pop();
  const segments: Segment[] = [];
  let rest = false;
  for (const [i, part] of parts.entries()) {
    if (part === '*') {
      if (i !== parts.length - 1) return invalid('has * before the last segment');
      rest = true;
    } else if (part.startsWith(':')) {
      if (!isParamName(part.slice(1))) return invalid(`has a bad parameter "${part.slice(0, 40)}"`);
      segments.push({ kind: 'param' });
    } else if (part === '' || part.includes('*') || /\s/.test(part)) {
      return invalid(`has a bad segment "${part.slice(0, 40)}"`);
    } else {
      segments.push({ kind: 'literal', text: part });
    }
  }
  return {
    status: 'valid',
    pattern: {
      method: method === '*' ? undefined : method,
      segments: [{ kind: 'literal', text: 'v1' }, ...segments],
      rest,
    },
  };
}

/** True when `method` and `path` (e.g. `/v1/media/med_1`, no query) match the pattern. */
export function matchRoute(pattern: RoutePattern, method: string, path: string): boolean {
  if (pattern.method !== undefined && pattern.method !== method) return false;
  if (pattern.segments === undefined) return true;
  const parts = path.split('/').slice(1);
  if (parts.at(-1) === '') parts.pop();
  const segments = pattern.segments;
  if (parts.length < segments.length) return false;
  if (!pattern.rest && parts.length !== segments.length) return false;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    const part = parts[i];
    if (segment === undefined || part === undefined) return false;
    if (segment.kind === 'literal' ? segment.text !== part : part === '') return false;
  }
  return true;
}

function isParamName(name: string): boolean {
  if (name.length === 0 || name.length > 40) return false;
  for (const ch of name) {
    if (!/[A-Za-z0-9_]/.test(ch)) return false;
  }
  return /[A-Za-z_]/.test(name[0] ?? '');
}
