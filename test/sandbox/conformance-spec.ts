/**
 * The spec's tables (spec/messaging-api.md parts 4.5, 7 and 8) as data for the
 * conformance probe: the error table, and one send case per limit at n and n+1.
 * Written from the spec text, not from the sandbox's code.
 */

/** Spec part 7: every error code and its HTTP status ("request rate" 429 is `rate_limited`). */
export const SPEC_ERRORS: Readonly<Record<string, number>> = {
  invalid_message: 400,
  invalid_pagination: 400,
  invalid_cursor: 400,
  unauthorized: 401,
  invalid_api_key: 401,
  insufficient_scope: 403,
  api_key_not_allowed: 403,
  message_not_found: 404,
  conversation_not_found: 404,
  media_not_found: 404,
  template_not_found: 404,
  instance_not_api_managed: 409,
  instance_unavailable: 409,
  contact_unavailable: 409,
  message_not_allowed: 409,
  conversation_owned_by_human: 409,
  service_window_closed: 409,
  template_not_approved: 409,
  quality_blocked: 409,
  contact_opted_out: 409,
  contact_instance_restricted: 409,
  contact_marketing_restricted: 409,
  rate_limited: 429,
  media_concurrency_exceeded: 429,
  temporarily_unavailable: 503,
  backlog_full: 503,
};

/** One send body and whether the spec admits its shape (202 in an open window) or not (400). */
export interface SendCase {
  readonly name: string;
  readonly body: Record<string, unknown>;
  readonly valid: boolean;
}

const s = (n: number, ch = 'a'): string => ch.repeat(n);
const base = (to: string) => ({ messaging_product: 'whatsapp', to });

/** At n (valid) and n+1 (invalid): `make(n)` builds the body. */
function boundary(
  name: string,
  n: number,
  make: (k: number) => Record<string, unknown>,
): SendCase[] {
  return [
    { name: `${name} = ${n}`, body: make(n), valid: true },
    { name: `${name} = ${n + 1}`, body: make(n + 1), valid: false },
  ];
}

/** Every content limit of 4.5 and part 8 at n and n+1, and the shape rules, for a send to `to`. */
export function sendCases(to: string): SendCase[] {
  const text = (body: string, extra: Record<string, unknown> = {}) => ({
    ...base(to),
    type: 'text',
    text: { body, ...extra },
  });
  const media = (type: string, fields: Record<string, unknown>) => ({
    ...base(to),
    type,
    [type]: { link: 'https://example.com/file.bin', ...fields },
  });
  const location = (fields: Record<string, unknown>) => ({
    ...base(to),
    type: 'location',
    location: { latitude: 0, longitude: 0, ...fields },
  });
  const reply = (id: string, title: string) => ({ type: 'reply', reply: { id, title } });
  const buttons = (n: number, extra: Record<string, unknown> = {}, btn = reply('b', 'B')) => ({
    ...base(to),
    type: 'interactive',
    interactive: {
      type: 'button',
      body: { text: 'Pick one' },
      action: {
        buttons: Array.from({ length: n }, (_, i) => ({
          ...btn,
          reply: { ...btn.reply, id: `${btn.reply.id}${i === 0 ? '' : i}` },
        })),
      },
      ...extra,
    },
  });
  const row = (fields: Record<string, unknown> = {}) => ({ id: 'r', title: 'Row', ...fields });
  const list = (
    sections: Record<string, unknown>[],
    extra: { button?: string; interactive?: Record<string, unknown> } = {},
  ) => ({
    ...base(to),
    type: 'interactive',
    interactive: {
      type: 'list',
      body: { text: 'Choose' },
      action: { button: extra.button ?? 'Open', sections },
      ...extra.interactive,
    },
  });
  const rows = (n: number, fields: Record<string, unknown> = {}) =>
    Array.from({ length: n }, (_, i) => row({ id: `r${i}`, ...fields }));
  const card = (fields: Record<string, unknown> = {}, name: Record<string, unknown> = {}) => ({
    ...base(to),
    type: 'contacts',
    contacts: [{ name: { formatted_name: 'Ada Lovelace', ...name }, ...fields }],
  });

  return [
    ...boundary('text.body length', 4_096, (k) => text(s(k))),
    {
      name: 'text.body length = 4,096 code points (emoji)',
      body: text(s(4_096, '😀')),
      valid: true,
    },
    {
      name: 'text.body length = 4,097 code points (emoji)',
      body: text(s(4_097, '😀')),
      valid: false,
    },
    { name: 'text.body length = 1', body: text('x'), valid: true },
    { name: 'text.body length = 0', body: text(''), valid: false },
    { name: 'text.preview_url boolean', body: text('x', { preview_url: true }), valid: true },
    { name: 'text.preview_url string', body: text('x', { preview_url: 'yes' }), valid: false },
    ...(['image', 'video', 'document'] as const).flatMap((type) =>
      boundary(`${type}.caption length`, 1_024, (k) => media(type, { caption: s(k) })),
    ),
    { name: 'audio without caption', body: media('audio', {}), valid: true },
    { name: 'audio with caption', body: media('audio', { caption: 'x' }), valid: false },
    ...boundary('document.filename length', 240, (k) => media('document', { filename: s(k) })),
    {
      name: 'image.link http (not https)',
      body: media('image', { link: 'http://example.com/a.jpg' }),
      valid: false,
    },
    {
      name: 'image.link port 8443',
      body: media('image', { link: 'https://example.com:8443/a.jpg' }),
      valid: false,
    },
    {
      name: 'image.link with credentials',
      body: media('image', { link: 'https://u:p@example.com/a.jpg' }),
      valid: false,
    },
    {
      name: 'image.link with fragment',
      body: media('image', { link: 'https://example.com/a.jpg#x' }),
      valid: false,
    },
    {
      name: 'image.link IPv4 address',
      body: media('image', { link: 'https://93.184.216.34/a.jpg' }),
      valid: false,
    },
    {
      name: 'image.link IPv6 address',
      body: media('image', { link: 'https://[2001:db8::1]/a.jpg' }),
      valid: false,
    },
    {
      name: 'image.link localhost',
      body: media('image', { link: 'https://localhost/a.jpg' }),
      valid: false,
    },
    {
      name: 'image.link private .local host',
      body: media('image', { link: 'https://printer.local/a.jpg' }),
      valid: false,
    },
    {
      name: 'image.id instead of link',
      body: { ...base(to), type: 'image', image: { id: 'media-1' } },
      valid: false,
    },
    ...boundary('location.latitude', 90, (k) => location({ latitude: k === 90 ? 90 : 90.000001 })),
    ...boundary('location.latitude (negative)', -90, (k) =>
      location({ latitude: k === -90 ? -90 : -90.000001 }),
    ),
    ...boundary('location.longitude', 180, (k) =>
      location({ longitude: k === 180 ? 180 : 180.000001 }),
    ),
    ...boundary('location.longitude (negative)', -180, (k) =>
      location({ longitude: k === -180 ? -180 : -180.000001 }),
    ),
    ...boundary('location.name length', 1_000, (k) => location({ name: s(k) })),
    ...boundary('location.address length', 1_000, (k) => location({ address: s(k) })),
    { name: 'location.latitude as string', body: location({ latitude: '1' }), valid: false },
    ...boundary('interactive body length', 1_024, (k) => buttons(1, { body: { text: s(k) } })),
    ...boundary('interactive header text length', 60, (k) =>
      buttons(1, { header: { type: 'text', text: s(k) } }),
    ),
    ...boundary('interactive footer text length', 60, (k) =>
      buttons(1, { footer: { text: s(k) } }),
    ),
    ...boundary('reply buttons count', 3, (k) => buttons(k)),
    { name: 'reply buttons count = 1', body: buttons(1), valid: true },
    { name: 'reply buttons count = 0', body: buttons(0), valid: false },
    ...boundary('reply button id length', 256, (k) => buttons(1, {}, reply(s(k), 'B'))),
    ...boundary('reply button title length', 20, (k) => buttons(1, {}, reply('b', s(k)))),
    ...boundary('list action.button length', 20, (k) =>
      list([{ title: 'S', rows: rows(1) }], { button: s(k) }),
    ),
    ...boundary('list sections count', 10, (k) =>
      list(Array.from({ length: k }, (_, i) => ({ title: `S${i}`, rows: [row({ id: `r${i}` })] }))),
    ),
    { name: 'list sections count = 1', body: list([{ title: 'S', rows: rows(1) }]), valid: true },
    { name: 'list sections count = 0', body: list([]), valid: false },
    ...boundary('list total rows', 10, (k) =>
      list([
        { title: 'A', rows: rows(5) },
        { title: 'B', rows: rows(k - 5).map((r, i) => ({ ...r, id: `b${i}` })) },
      ]),
    ),
    ...boundary('list section title length', 24, (k) => list([{ title: s(k), rows: rows(1) }])),
    ...boundary('list row id length', 200, (k) =>
      list([{ title: 'S', rows: [row({ id: s(k) })] }]),
    ),
    ...boundary('list row title length', 24, (k) =>
      list([{ title: 'S', rows: [row({ title: s(k) })] }]),
    ),
    ...boundary('list row description length', 72, (k) =>
      list([{ title: 'S', rows: [row({ description: s(k) })] }]),
    ),
    {
      name: 'interactive type product (not accepted)',
      body: {
        ...base(to),
        type: 'interactive',
        interactive: { type: 'product', body: { text: 'x' }, action: {} },
      },
      valid: false,
    },
    { name: 'contacts entries = 1', body: card(), valid: true },
    {
      name: 'contacts entries = 0',
      body: { ...base(to), type: 'contacts', contacts: [] },
      valid: false,
    },
    {
      name: 'contacts entries = 2',
      body: {
        ...card(),
        contacts: [...(card().contacts as unknown[]), ...(card().contacts as unknown[])],
      },
      valid: false,
    },
    ...boundary('name.formatted_name length', 256, (k) => card({}, { formatted_name: s(k) })),
    ...(['first_name', 'last_name', 'middle_name'] as const).flatMap((f) =>
      boundary(`name.${f} length`, 128, (k) => card({}, { [f]: s(k) })),
    ),
    ...(['prefix', 'suffix'] as const).flatMap((f) =>
      boundary(`name.${f} length`, 32, (k) => card({}, { [f]: s(k) })),
    ),
    ...boundary('phones per card', 3, (k) =>
      card({ phones: Array.from({ length: k }, () => ({ phone: '+15551230001' })) }),
    ),
    ...boundary('emails per card', 3, (k) =>
      card({ emails: Array.from({ length: k }, () => ({ email: 'a@example.com' })) }),
    ),
    ...boundary('urls per card', 3, (k) =>
      card({ urls: Array.from({ length: k }, () => ({ url: 'https://example.com' })) }),
    ),
    ...(['company', 'department', 'title'] as const).flatMap((f) =>
      boundary(`org.${f} length`, 256, (k) => card({ org: { [f]: s(k) } })),
    ),
    {
      name: 'contact card without formatted_name',
      body: { ...base(to), type: 'contacts', contacts: [{ name: { first_name: 'A' } }] },
      valid: false,
    },
    { name: 'phone entry without phone', body: card({ phones: [{ type: 'HOME' }] }), valid: false },
    { name: 'unknown top-level field', body: { ...text('x'), extra: 1 }, valid: false },
    { name: 'unknown field in content', body: text('x', { bold: true }), valid: false },
    {
      name: 'recipient_type individual',
      body: { ...text('x'), recipient_type: 'individual' },
      valid: true,
    },
    { name: 'recipient_type group', body: { ...text('x'), recipient_type: 'group' }, valid: false },
    {
      name: 'messaging_product wrong',
      body: { ...text('x'), messaging_product: 'sms' },
      valid: false,
    },
    {
      name: 'messaging_product missing',
      body: { to, type: 'text', text: { body: 'x' } },
      valid: false,
    },
    {
      name: 'to missing',
      body: { messaging_product: 'whatsapp', type: 'text', text: { body: 'x' } },
      valid: false,
    },
    { name: 'to without +', body: { ...text('x'), to: to.slice(1) }, valid: false },
    { name: 'to too short', body: { ...text('x'), to: '+1234' }, valid: false },
    { name: 'to with letters', body: { ...text('x'), to: '+1555ABC0001' }, valid: false },
    { name: 'type unknown', body: { ...base(to), type: 'sticker', sticker: {} }, valid: false },
    { name: 'content object missing', body: { ...base(to), type: 'text' }, valid: false },
    {
      name: 'content of another type',
      body: { ...base(to), type: 'text', image: { link: 'https://example.com/a.jpg' } },
      valid: false,
    },
    {
      name: 'body is an array',
      body: [text('x')] as unknown as Record<string, unknown>,
      valid: false,
    },
    {
      name: 'Idempotency-style field rejected',
      body: { ...text('x'), idempotency_key: 'k' },
      valid: false,
    },
  ];
}
