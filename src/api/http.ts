/**
 * One HTTP exchange with a deadline, turned into an outcome value: a response (JSON body
 * read, or the byte stream of a successful media read), a timeout, or a network failure
 * that says whether the request provably never left this process.
 *
 * JSON exchanges go through an undici keep-alive pool ({@link defaultDispatcher}) with
 * undici's `request` API: no WHATWG Request/Response/stream objects per call (fetch cost
 * 15–25% of a busy bot's CPU). Streamed media reads, and every call when a `fetch` is
 * injected (tests), use fetch.
 */
import { Agent, type Dispatcher } from 'undici';

/** Network error codes that fail before a connection exists, so no request byte was written. */
const PRE_WRITE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The result of {@link exchange}. */
export type HttpOutcome =
  | {
      readonly status: 'response';
      readonly httpStatus: number;
      readonly headers: ResponseHeaders;
      /** `X-Service-Request-Id`, for support. */
      readonly requestId: string | undefined;
      /** Parsed JSON body; undefined when empty, not JSON, or streamed. */
      readonly body: unknown;
      /** True when a non-empty body was not valid JSON. */
      readonly bodyUnparseable: boolean;
      /** The byte stream, only for a streamed 200. */
      readonly stream: ReadableStream<Uint8Array> | undefined;
    }
  | { readonly status: 'timeout'; readonly cause: unknown }
  | {
      readonly status: 'network';
      readonly cause: unknown;
      readonly errorCode: string | undefined;
      /** True when the failure provably happened before any request byte was written. */
      readonly beforeWrite: boolean;
    };

/** Response headers by lower-case name (a fetch `Headers` fits). */
export interface ResponseHeaders {
  get(name: string): string | null;
}

/** Connections kept per API origin by the default pool (sends, reads and media together). */
export const POOL_CONNECTIONS = 64;

let sharedDispatcher: Dispatcher | undefined;

/**
 * The process-wide keep-alive pool of API calls (made on first use): at most
 * {@link POOL_CONNECTIONS} connections per origin, no pipelining (a POST never waits
 * behind another request, so an unknown outcome stays one request's).
 */
export function defaultDispatcher(): Dispatcher {
  sharedDispatcher ??= new Agent({ connections: POOL_CONNECTIONS, pipelining: 1 });
  return sharedDispatcher;
}

/** Input of {@link exchange}. */
export interface ExchangeInput {
  /** An injected fetch (tests): every exchange goes through it. */
  readonly fetch: typeof fetch | undefined;
  /** The pool JSON exchanges use when no fetch is injected. Default {@link defaultDispatcher}. */
  readonly dispatcher?: Dispatcher;
  readonly url: string;
  readonly init: RequestInit;
  readonly timeoutMs: number;
  /** `stream`: keep the body of a 200 as a stream (the deadline stops at the headers). */
  readonly mode: 'json' | 'stream';
}

/** Performs one request. Never throws for HTTP or network failures; returns an outcome. */
export async function exchange(input: ExchangeInput): Promise<HttpOutcome> {
  if (input.fetch === undefined && input.mode === 'json') return dispatchedExchange(input);
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort(new Error(`no complete answer within ${input.timeoutMs} ms`));
  }, input.timeoutMs);
  try {
    const response = await (input.fetch ?? fetch)(input.url, {
      ...input.init,
      signal: controller.signal,
    });
    const requestId = response.headers.get('x-service-request-id') ?? undefined;
    if (input.mode === 'stream' && response.status === 200 && response.body !== null) {
      clearTimeout(timer);
      return {
        status: 'response',
        httpStatus: response.status,
        headers: response.headers,
        requestId,
        body: undefined,
        bodyUnparseable: false,
        stream: response.body,
      };
    }
    const text = await response.text();
    const { body, unparseable } = parseJson(text);
    return {
      status: 'response',
      httpStatus: response.status,
      headers: response.headers,
      requestId,
      body,
      bodyUnparseable: unparseable,
      stream: undefined,
    };
  } catch (err) {
    if (controller.signal.aborted) return { status: 'timeout', cause: err };
    return networkOutcome(err);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A JSON exchange on the pool through undici's dispatch handler API: the answer's body is
 * collected as it arrives (no stream object, no AbortController per request), and one
 * timer bounds the whole exchange; when it fires, the outcome is a timeout and the
 * request is aborted where it stands (a late answer is ignored). Never rejects.
 */
function dispatchedExchange(input: ExchangeInput): Promise<HttpOutcome> {
  return new Promise<HttpOutcome>((resolve) => {
    let settled = false;
    let abort: ((err?: Error) => void) | undefined;
    let httpStatus = 0;
    let raw: Buffer[] = [];
    const chunks: Buffer[] = [];
    const settle = (outcome: HttpOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      const cause = new Error(`no complete answer within ${input.timeoutMs} ms`);
      settle({ status: 'timeout', cause });
      abort?.(cause);
    }, input.timeoutMs);
    const handler: Dispatcher.DispatchHandlers = {
      onConnect(abortRequest) {
        abort = abortRequest;
        if (settled) abortRequest(new Error('the exchange already timed out'));
      },
      onHeaders(statusCode, headers) {
        // 1xx informational answers come before the real one.
        if (statusCode >= 200) {
          httpStatus = statusCode;
          raw = headers;
        }
        return true;
      },
      onData(chunk) {
        chunks.push(chunk);
        return true;
      },
      onComplete() {
        const headers = new PlainHeaders(headerRecord(raw));
        const { body, unparseable } = parseJson(Buffer.concat(chunks).toString('utf8'));
        settle({
          status: 'response',
          httpStatus,
          headers,
          requestId: headers.get('x-service-request-id') ?? undefined,
          body,
          bodyUnparseable: unparseable,
          stream: undefined,
        });
      },
      onError(err) {
        settle(networkOutcome(err));
      },
    };
    try {
      const url = new URL(input.url);
      const { init } = input;
      (input.dispatcher ?? defaultDispatcher()).dispatch(
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
          headers: init.headers as Record<string, string>,
          body: typeof init.body === 'string' ? init.body : null,
        },
        handler,
      );
    } catch (err) {
      settle(networkOutcome(err));
    }
  });
}

/** A network failure (or a refused dispatch) as an outcome. */
function networkOutcome(err: unknown): HttpOutcome {
  const errorCode = networkErrorCode(err);
  return {
    status: 'network',
    cause: err,
    errorCode,
    beforeWrite: errorCode !== undefined && PRE_WRITE_CODES.has(errorCode),
  };
}

/** Raw header pairs (name, value, …) as a record of lower-case names; repeats joined. */
function headerRecord(raw: readonly Buffer[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = String(raw[i]).toLowerCase();
    const value = String(raw[i + 1]);
    const known = record[name];
    record[name] = known === undefined ? value : `${known}, ${value}`;
  }
  return record;
}

/** undici's header record (lower-case names) behind the `get` of a `Headers`. */
class PlainHeaders implements ResponseHeaders {
  readonly #raw: Record<string, string | string[] | undefined>;

  constructor(raw: Record<string, string | string[] | undefined>) {
    this.#raw = raw;
  }

  get(name: string): string | null {
    const value = this.#raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
}

function parseJson(text: string): { body: unknown; unparseable: boolean } {
  if (text.trim() === '') return { body: undefined, unparseable: false };
  try {
    const body: unknown = JSON.parse(text);
    return { body, unparseable: false };
  } catch {
    // Not JSON (a proxy page, a truncated body): the caller reports a bad response.
    return { body: undefined, unparseable: true };
  }
}

/** The `code` of the error or of any error in its `cause` chain (undici nests it). */
export function networkErrorCode(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    if ('code' in current && typeof current.code === 'string') return current.code;
    current = 'cause' in current ? current.cause : undefined;
  }
  return undefined;
}
