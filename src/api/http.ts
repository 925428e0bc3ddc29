/**
 * One HTTP exchange with a deadline, turned into an outcome value: a response (JSON body
 * read, or the byte stream of a successful media read), a timeout, or a network failure
 * that says whether the request provably never left this process.
 */

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
      readonly headers: Headers;
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

/** Input of {@link exchange}. */
export interface ExchangeInput {
  readonly fetch: typeof fetch;
  readonly url: string;
  readonly init: RequestInit;
  readonly timeoutMs: number;
  /** `stream`: keep the body of a 200 as a stream (the deadline stops at the headers). */
  readonly mode: 'json' | 'stream';
}

/** Performs one request. Never throws for HTTP or network failures; returns an outcome. */
export async function exchange(input: ExchangeInput): Promise<HttpOutcome> {
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort(new Error(`no complete answer within ${input.timeoutMs} ms`));
  }, input.timeoutMs);
  try {
    const response = await input.fetch(input.url, { ...input.init, signal: controller.signal });
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
    const errorCode = networkErrorCode(err);
    return {
      status: 'network',
      cause: err,
      errorCode,
      beforeWrite: errorCode !== undefined && PRE_WRITE_CODES.has(errorCode),
    };
  } finally {
    clearTimeout(timer);
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
