import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AdmissionError,
  ApiError,
  ApiResponseError,
  AuthError,
  NotFoundError,
  RateLimitError,
  ScopeError,
  ServerError,
  UnavailableError,
  ValidationError,
  errorFromResponse,
  isErrorCode,
} from '../../src/api/errors.js';
import { ERROR_CODES } from '../../src/api/resources.js';
import { makeClient, textRequest } from './client-fixture.js';
import { json, startTestServer, type TestServer } from './test-server.js';

type ErrorClass = new (...args: never[]) => ApiError;

/** Every code of spec part 7 with its status and error class. */
const TABLE: ReadonlyArray<readonly [number, string, ErrorClass]> = [
  [400, 'invalid_message', ValidationError],
  [400, 'invalid_pagination', ValidationError],
  [400, 'invalid_cursor', ValidationError],
  [401, 'unauthorized', AuthError],
  [401, 'invalid_api_key', AuthError],
  [403, 'insufficient_scope', ScopeError],
  [403, 'api_key_not_allowed', ScopeError],
  [404, 'message_not_found', NotFoundError],
  [404, 'conversation_not_found', NotFoundError],
  [404, 'media_not_found', NotFoundError],
  [404, 'template_not_found', NotFoundError],
  [409, 'instance_not_api_managed', AdmissionError],
  [409, 'instance_unavailable', AdmissionError],
  [409, 'contact_unavailable', AdmissionError],
  [409, 'message_not_allowed', AdmissionError],
  [409, 'conversation_owned_by_human', AdmissionError],
  [409, 'service_window_closed', AdmissionError],
  [409, 'template_not_approved', AdmissionError],
  [409, 'quality_blocked', AdmissionError],
  [409, 'contact_opted_out', AdmissionError],
  [409, 'contact_instance_restricted', AdmissionError],
  [409, 'contact_marketing_restricted', AdmissionError],
  [429, 'rate_limited', RateLimitError],
  [429, 'media_concurrency_exceeded', RateLimitError],
  [503, 'temporarily_unavailable', UnavailableError],
  [503, 'backlog_full', UnavailableError],
];

const base = { route: 'GET /v1/messages/:messageId', requestTime: '2026-03-01T12:00:00.000Z' };

describe('errorFromResponse', () => {
  it('should cover every code of spec part 7', () => {
    expect(TABLE.map(([, code]) => code).sort()).toEqual([...ERROR_CODES].sort());
  });

  it.each(TABLE)('should map %i %s to its class and keep the code', (status, code, cls) => {
    const err = errorFromResponse({
      ...base,
      status,
      body: { code, message: 'm', extra: 1 },
      requestId: 'rq',
    });
    expect(err).toBeInstanceOf(cls);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.name).toBe(cls.name);
    expect(err.code).toBe(code);
    expect(err.status).toBe(status);
    expect(err.requestId).toBe('rq');
    expect(err.details).toEqual({ extra: 1 });
    expect(isErrorCode(err, code)).toBe(true);
    expect(isErrorCode(err, 'something_else')).toBe(false);
  });

  it('should map other 5xx to ServerError and unknown 503 codes too', () => {
    expect(errorFromResponse({ ...base, status: 500, body: undefined })).toBeInstanceOf(
      ServerError,
    );
    expect(errorFromResponse({ ...base, status: 502, body: undefined }).code).toBe('http_502');
    const odd = errorFromResponse({
      ...base,
      status: 503,
      body: { code: 'maintenance', message: '' },
    });
    expect(odd).toBeInstanceOf(ServerError);
    expect(odd).not.toBeInstanceOf(UnavailableError);
  });

  it('should fall back to rate_limited for a 429 without an envelope', () => {
    const err = errorFromResponse({ ...base, status: 429, body: 'Too many', retryAfterMs: 1_000 });
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.code).toBe('rate_limited');
    expect(err.retryAfterMs).toBe(1_000);
  });
});

describe('MessagingClient errors', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  it.each(TABLE)('should throw %i %s on a read as its typed class', async (status, code, cls) => {
    server.handle((_req, res) =>
      json(
        res,
        status,
        { code, message: `human text ${code}` },
        { 'x-service-request-id': 'req-9' },
      ),
    );
    const { client } = makeClient(server.baseUrl, { retry: { maxAttempts: 1 } });
    const err: unknown = await client.getMessage('m1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(cls);
    expect(isErrorCode(err, code)).toBe(true);
    expect(err).toMatchObject({
      status,
      code,
      requestId: 'req-9',
      route: 'GET /v1/messages/:messageId',
      requestTime: '2026-03-01T12:00:00.000Z',
    });
  });

  it.each(TABLE.filter(([s]) => s < 500))(
    'should reject a send answered %i %s with the typed error',
    async (status, code, cls) => {
      server.handle((_req, res) => json(res, status, { code, message: 'no' }));
      const { client } = makeClient(server.baseUrl);
      const result = await client.send(textRequest());
      expect(result.status).toBe('rejected');
      if (result.status !== 'rejected') return;
      expect(result.error).toBeInstanceOf(cls);
      expect(result.error.code).toBe(code);
      expect(result.error.route).toBe('POST /v1/messages');
      expect(result.retryable).toBe(status === 429);
    },
  );

  it('should report a 200 whose body does not parse as ApiResponseError', async () => {
    server.handle((_req, res) => json(res, 200, { message: { id: 'm1' } }));
    const { client } = makeClient(server.baseUrl);
    const err: unknown = await client.getMessage('m1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiResponseError);
    expect(isErrorCode(err, 'bad_response')).toBe(true);
  });

  it('should report a 200 that is not JSON as ApiResponseError', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>proxy</html>');
    });
    const { client } = makeClient(server.baseUrl);
    await expect(client.listConversations()).rejects.toBeInstanceOf(ApiResponseError);
  });
});
