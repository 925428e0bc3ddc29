import { createHash } from 'node:crypto';
import type { NumberConfig, SandboxConfig, Scope } from './config.js';
import { problem, type Problem } from './problem.js';

/** The caller of an API request: which configured key, bound to which number. */
export interface Caller {
  readonly keyIndex: number;
  /** Stable id of the key (its budgets survive keys added or removed before it). */
  readonly keyId: string;
  readonly numberId: string;
  readonly number: NumberConfig;
}

/** Outcome of {@link authorize}. */
export type AuthResult =
  | { readonly status: 'ok'; readonly caller: Caller }
  | { readonly status: 'denied'; readonly problem: Problem };

/** Extracts a bearer token, or undefined when the header is missing or malformed. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * Authenticates a request (spec part 5) and checks, in order: the token (401
 * unauthorized / invalid_api_key), the scope (403 insufficient_scope), then the bound
 * number's state (409 instance_not_api_managed / instance_unavailable).
 */
export function authorize(
  config: SandboxConfig,
  header: string | undefined,
  scope: Scope,
): AuthResult {
  const deny = (p: Problem): AuthResult => ({ status: 'denied', problem: p });
  if (header === undefined || header.trim() === '') {
    return deny(
      problem(
        'unauthorized',
        'Missing Authorization header; send "Authorization: Bearer <API_KEY>".',
      ),
    );
  }
  const token = bearerToken(header);
  if (token === undefined) {
    return deny(
      problem('unauthorized', 'Malformed Authorization header; use the form "Bearer <API_KEY>".'),
    );
  }
  const keyIndex = config.keys.findIndex((k) => k.key === token);
  const key = config.keys[keyIndex];
  if (key === undefined) return deny(problem('invalid_api_key', 'The API key is not valid.'));
  if (key.state !== 'active') {
    return deny(
      problem(
        'invalid_api_key',
        `The API key was ${key.state}; use the current key for this number.`,
      ),
    );
  }
  if (!key.scopes.includes(scope)) {
    return deny(
      problem('insufficient_scope', `The API key lacks the ${scope} scope for this operation.`, {
        requiredScope: scope,
      }),
    );
  }
  const number = config.numbers.find((n) => n.id === key.number);
  if (number === undefined)
    return deny(problem('invalid_api_key', 'The API key is bound to an unknown number.'));
  if (number.handling !== 'developer_api') {
    return deny(
      problem('instance_not_api_managed', 'The bound number is not set to Developer API handling.'),
    );
  }
  if (!number.connected) {
    return deny(
      problem(
        'instance_unavailable',
        'The sender connection of the bound number must be restored.',
      ),
    );
  }
  return {
    status: 'ok',
    caller: { keyIndex, keyId: keyIdOf(key.key), numberId: number.id, number },
  };
}

/** A stable, non-secret id of a key: a prefix of its SHA-256, never the key itself. */
export function keyIdOf(key: string): string {
  return `key_${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}
