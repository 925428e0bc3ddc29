import { expect } from 'vitest';
import { SPEC_ERRORS } from './conformance-spec.js';

/** Options of one API call of the probe. */
export interface CallOptions {
  readonly key?: string | null;
  readonly method?: string;
  readonly body?: unknown;
  readonly raw?: string | Buffer;
  readonly headers?: Record<string, string>;
  readonly signal?: AbortSignal;
}

/**
 * A black-box client of a running sandbox: `/v1` calls with a key, `/sandbox` control
 * calls exactly as docs/sandbox-control.md documents them, and a ledger of checked cases and the
 * error codes seen, for the coverage report.
 */
export class Probe {
  cases = 0;
  /** Distinct case names (a loop of 600 sends counts once per name). */
  readonly names = new Set<string>();
  readonly codes = new Map<string, number>();

  constructor(
    readonly baseUrl: string,
    readonly defaultKey: string,
  ) {}

  /** An API call; JSON bodies get `Content-Type: application/json`. */
  call(path: string, options: CallOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    const key = options.key === undefined ? this.defaultKey : options.key;
    if (key !== null) headers['authorization'] = `Bearer ${key}`;
    let body: string | Buffer | undefined = options.raw;
    if (body === undefined && options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    return fetch(`${this.baseUrl}${path}`, {
      method: options.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      ...(body === undefined ? {} : { body }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  }

  /** A control call that must succeed; returns its JSON. */
  async control<T = Record<string, unknown>>(
    path: string,
    method = 'POST',
    body?: unknown,
  ): Promise<T> {
    const res = await fetch(`${this.baseUrl}/sandbox${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (res.status >= 300)
      throw new Error(`${method} /sandbox${path} answered ${res.status}: ${text}`);
    return JSON.parse(text) as T;
  }

  /** Budgets back to full, so that cases do not use up each other's request budget. */
  freshBudgets(): Promise<unknown> {
    return this.control('/reset', 'POST', { scope: 'rate-limits' });
  }

  /**
   * Checks one case: the status, and for an error the spec envelope (`code` and
   * `message` strings), the code, and that the status is the one part 7 gives the code.
   */
  async expect(
    name: string,
    res: Response,
    status: number,
    code?: string,
  ): Promise<Record<string, unknown>> {
    this.cases++;
    this.names.add(name);
    const text = await res.text();
    expect(res.status, `${name}: ${text.slice(0, 300)}`).toBe(status);
    const json = (res.headers.get('content-type') ?? '').includes('application/json');
    if (status < 400)
      return json && text !== '' ? (JSON.parse(text) as Record<string, unknown>) : {};
    expect(res.headers.get('content-type') ?? '', name).toContain('application/json');
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(typeof body['code'], name).toBe('string');
    expect(typeof body['message'], name).toBe('string');
    const seen = String(body['code']);
    if (code !== undefined) expect(seen, name).toBe(code);
    if (SPEC_ERRORS[seen] !== undefined) {
      expect(res.status, `${name}: status of ${seen}`).toBe(SPEC_ERRORS[seen]);
      this.codes.set(seen, (this.codes.get(seen) ?? 0) + 1);
    }
    return body;
  }
}
