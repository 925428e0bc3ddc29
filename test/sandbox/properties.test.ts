import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRoutePattern, matchRoute } from '../../src/sandbox/route-pattern.js';
import { SPEC_ERRORS } from './conformance-spec.js';
import { ADA, START, startSandbox, type Harness } from './helpers.js';

/**
 * Property tests of the sandbox against the spec tables (parts 4.5, 7, 8): random
 * lengths, counts, coordinates, limits, body sizes, bursts and paths, each checked
 * against the rule the table states. A regression in one limit or error row fails here.
 */

const to = ADA;
const base = { messaging_product: 'whatsapp', to };
const reply = (i: number) => ({ type: 'reply', reply: { id: `b${i}`, title: 'B' } });
const buttons = (fields: Record<string, unknown>, n = 1) => ({
  ...base,
  type: 'interactive',
  interactive: {
    type: 'button',
    body: { text: 'Pick' },
    action: { buttons: Array.from({ length: n }, (_, i) => reply(i)) },
    ...fields,
  },
});
const list = (sections: unknown[], button = 'Open') => ({
  ...base,
  type: 'interactive',
  interactive: { type: 'list', body: { text: 'Choose' }, action: { button, sections } },
});
const card = (entry: Record<string, unknown>, name: Record<string, unknown> = {}) => ({
  ...base,
  type: 'contacts',
  contacts: [{ name: { formatted_name: 'Ada', ...name }, ...entry }],
});
const media = (type: string, fields: Record<string, unknown>) => ({
  ...base,
  type,
  [type]: { link: 'https://example.com/f', ...fields },
});

/** Part 8 / 4.5 maximum lengths: a body with the field set to a string of n characters. */
const MAX_LENGTHS: [string, number, (v: string) => unknown][] = [
  ['image caption', 1_024, (v) => media('image', { caption: v })],
  ['video caption', 1_024, (v) => media('video', { caption: v })],
  ['document caption', 1_024, (v) => media('document', { caption: v })],
  ['document filename', 240, (v) => media('document', { filename: v })],
  [
    'location name',
    1_000,
    (v) => ({ ...base, type: 'location', location: { latitude: 1, longitude: 1, name: v } }),
  ],
  [
    'location address',
    1_000,
    (v) => ({ ...base, type: 'location', location: { latitude: 1, longitude: 1, address: v } }),
  ],
  ['interactive body', 1_024, (v) => buttons({ body: { text: v } })],
  ['interactive header text', 60, (v) => buttons({ header: { type: 'text', text: v } })],
  ['interactive footer text', 60, (v) => buttons({ footer: { text: v } })],
  [
    'reply button id',
    256,
    (v) => ({
      ...buttons({}),
      interactive: {
        ...buttons({}).interactive,
        action: { buttons: [{ type: 'reply', reply: { id: v, title: 'B' } }] },
      },
    }),
  ],
  [
    'reply button title',
    20,
    (v) => ({
      ...buttons({}),
      interactive: {
        ...buttons({}).interactive,
        action: { buttons: [{ type: 'reply', reply: { id: 'b', title: v } }] },
      },
    }),
  ],
  ['list action button', 20, (v) => list([{ title: 'S', rows: [{ id: 'r', title: 'R' }] }], v)],
  ['list section title', 24, (v) => list([{ title: v, rows: [{ id: 'r', title: 'R' }] }])],
  ['list row id', 200, (v) => list([{ title: 'S', rows: [{ id: v, title: 'R' }] }])],
  ['list row title', 24, (v) => list([{ title: 'S', rows: [{ id: 'r', title: v }] }])],
  [
    'list row description',
    72,
    (v) => list([{ title: 'S', rows: [{ id: 'r', title: 'R', description: v }] }]),
  ],
  ['formatted_name', 256, (v) => card({}, { formatted_name: v })],
  ['first_name', 128, (v) => card({}, { first_name: v })],
  ['last_name', 128, (v) => card({}, { last_name: v })],
  ['middle_name', 128, (v) => card({}, { middle_name: v })],
  ['prefix', 32, (v) => card({}, { prefix: v })],
  ['suffix', 32, (v) => card({}, { suffix: v })],
  ['org company', 256, (v) => card({ org: { company: v } })],
  ['org department', 256, (v) => card({ org: { department: v } })],
  ['org title', 256, (v) => card({ org: { title: v } })],
  ['text body', 4_096, (v) => ({ ...base, type: 'text', text: { body: v } })],
];

/** Counts of part 8: [name, min, max, body with n entries]. */
const COUNTS: [string, number, number, (n: number) => unknown][] = [
  ['reply buttons', 1, 3, (n) => buttons({}, n)],
  [
    'list sections',
    1,
    10,
    (n) =>
      list(
        Array.from({ length: n }, (_, i) => ({
          title: `S${i}`,
          rows: [{ id: `r${i}`, title: 'R' }],
        })),
      ),
  ],
  [
    'list total rows',
    1,
    10,
    (n) =>
      list([
        { title: 'S', rows: Array.from({ length: n }, (_, i) => ({ id: `r${i}`, title: 'R' })) },
      ]),
  ],
  [
    'contacts entries',
    1,
    1,
    (n) => ({
      ...base,
      type: 'contacts',
      contacts: Array.from({ length: n }, () => ({ name: { formatted_name: 'A' } })),
    }),
  ],
  [
    'phones per card',
    0,
    3,
    (n) => card({ phones: Array.from({ length: n }, () => ({ phone: '+15551230001' })) }),
  ],
  [
    'emails per card',
    0,
    3,
    (n) => card({ emails: Array.from({ length: n }, () => ({ email: 'a@example.com' })) }),
  ],
  [
    'urls per card',
    0,
    3,
    (n) => card({ urls: Array.from({ length: n }, () => ({ url: 'https://example.com' })) }),
  ],
];

/** Characters drawn from several planes: length limits count code points. */
const charArb = fc.constantFrom('a', 'é', '中', '😀', ' ', 'Z');
/** A length near the limit most of the time, anywhere in 1..limit+40 otherwise. */
const lengthNear = (max: number) =>
  fc.oneof(
    fc.integer({ min: Math.max(1, max - 3), max: max + 3 }),
    fc.integer({ min: 1, max: max + 40 }),
  );

describe('sandbox properties against the spec tables', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startSandbox({ rateLimits: false });
    h.clock.set(START);
    h.sandbox.control.injectInbound({ type: 'text', from: ADA, text: 'window' });
  });
  afterAll(async () => {
    await h.close();
  });

  const status = async (body: unknown) => {
    const res = await h.call('/v1/messages', { body });
    const json = (await res.json()) as { code?: string };
    if (res.status !== 202) expect(json.code).toBe('invalid_message');
    return res.status;
  };

  it('should accept a string field iff its length in code points is within the part 8 limit', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 0, max: MAX_LENGTHS.length - 1 })
          .chain((i) => fc.tuple(fc.constant(i), lengthNear(MAX_LENGTHS[i]![1]), charArb)),
        async ([i, length, ch]) => {
          const [, max, make] = MAX_LENGTHS[i]!;
          // A leading letter keeps whitespace-only values out of the picture.
          const value = `x${ch.repeat(length - 1)}`;
          expect(await status(make(value))).toBe(length <= max ? 202 : 400);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('should accept a count iff it is within the part 8 range', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 0, max: COUNTS.length - 1 })
          .chain((i) => fc.tuple(fc.constant(i), fc.integer({ min: 0, max: COUNTS[i]![2] + 3 }))),
        async ([i, n]) => {
          const [, min, max, make] = COUNTS[i]!;
          expect(await status(make(n))).toBe(n >= min && n <= max ? 202 : 400);
        },
      ),
      { numRuns: 80 },
    );
  });

  it('should accept coordinates iff latitude is in -90..90 and longitude in -180..180', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.double({ min: -200, max: 200, noNaN: true }),
        fc.double({ min: -200, max: 200, noNaN: true }),
        async (latitude, longitude) => {
          const ok = latitude >= -90 && latitude <= 90 && longitude >= -180 && longitude <= 180;
          expect(
            await status({ ...base, type: 'location', location: { latitude, longitude } }),
          ).toBe(ok ? 202 : 400);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('should accept a JSON body iff its size as received is at most 262,144 bytes', async () => {
    const json = JSON.stringify({ ...base, type: 'text', text: { body: 'x' } });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 262_100, max: 262_200 }),
        fc.constantFrom(' ', '\n', '\t', '\r\n'),
        async (size, ws) => {
          const padding = ws
            .repeat(Math.ceil((size - json.length) / ws.length))
            .slice(0, size - json.length);
          const res = await h.call('/v1/messages', { raw: json + padding });
          await res.arrayBuffer();
          expect(res.status).toBe(size <= 262_144 ? 202 : 400);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('should accept a list limit iff it is an integer from 1 to 100', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.integer({ min: -5, max: 110 }).map(String),
          fc.string({ maxLength: 6 }),
          fc.constantFrom('1.0', '01', '+5', '1e1', ' 5', '0x10'),
        ),
        async (limit) => {
          const res = await h.call(`/v1/conversations?limit=${encodeURIComponent(limit)}`);
          const body = (await res.json()) as { code?: string };
          const ok = /^\d+$/.test(limit) && Number(limit) >= 1 && Number(limit) <= 100;
          expect(res.status, limit).toBe(ok ? 200 : 400);
          if (!ok) expect(body.code).toBe('invalid_pagination');
        },
      ),
      { numRuns: 80 },
    );
  });

  it('should answer any /v1 path with the JSON envelope and the part 7 status of its code, never a 5xx', async () => {
    const segment = fc.oneof(
      fc.constantFrom(
        'v1',
        'messages',
        'conversations',
        'media',
        '%',
        '%E0%A4%A',
        '%ZZ',
        '%2F',
        '..',
      ),
      fc.string({ maxLength: 8 }).map(encodeURIComponent),
      fc.stringMatching(/^[A-Za-z0-9%._~-]{0,8}$/),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { maxLength: 4 }),
        fc.constantFrom('GET', 'POST'),
        async (parts, method) => {
          const path = `/v1/${parts.join('/')}`;
          const res = await h.call(path, method === 'POST' ? { method, raw: '{}' } : { method });
          expect(res.status, path).toBeLessThan(500);
          if (res.status >= 400) {
            const body = (await res.json()) as { code: unknown; message: unknown };
            expect(typeof body.code, path).toBe('string');
            expect(typeof body.message, path).toBe('string');
            const expected = SPEC_ERRORS[body.code as string];
            if (expected !== undefined) expect(res.status, path).toBe(expected);
            else expect(body.code, path).toBe('not_found');
          } else {
            await res.arrayBuffer();
          }
        },
      ),
      { numRuns: 120 },
    );
  });

  it('should parse and match any route pattern without throwing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.string({ maxLength: 60 }), (route, path) => {
        const parsed = parseRoutePattern(route);
        if (parsed.status === 'valid')
          expect(typeof matchRoute(parsed.pattern, 'GET', path)).toBe('boolean');
      }),
      { numRuns: 500 },
    );
  });
});

describe('sandbox send burst property', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startSandbox();
  });
  afterAll(async () => {
    await h.close();
  });

  it('should accept exactly min(n, 20) of n sends within one second and answer the rest 429 with Retry-After', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 30 }), async (n) => {
        h.sandbox.control.reset('all');
        h.clock.set(START);
        h.sandbox.control.injectInbound({ type: 'text', from: ADA, text: 'hi' });
        let accepted = 0;
        for (let i = 0; i < n; i++) {
          const res = await h.call('/v1/messages', {
            body: { ...base, type: 'text', text: { body: 'x' } },
          });
          const body = (await res.json()) as { code?: string };
          if (res.status === 202) accepted++;
          else {
            expect(res.status).toBe(429);
            expect(body.code).toBe('rate_limited');
            expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
          }
        }
        expect(accepted).toBe(Math.min(n, 20));
      }),
      { numRuns: 12 },
    );
  });
});
