/**
 * Every limit of spec part 8 and 4.5.x, defined once. The message builders, the API
 * client's budgets, the sandbox and the flow linter all read them from here.
 * Character limits count Unicode code points (`[...s].length`).
 */
export const LIMITS = {
  /** `limit` query parameter of both list endpoints (4.1, 4.2). */
  listLimit: { min: 1, max: 100, default: 50 },
  /** JSON request body of POST /v1/messages, in bytes (4.5 rule 2). */
  requestBodyBytes: 262_144,

  textBody: { min: 1, max: 4096 },
  caption: 1024,
  documentFilename: 240,
  locationName: 1000,
  locationAddress: 1000,
  latitude: { min: -90, max: 90 },
  longitude: { min: -180, max: 180 },

  interactiveBody: 1024,
  interactiveHeaderText: 60,
  interactiveFooterText: 60,
  buttonId: 256,
  buttonTitle: 20,
  buttons: { min: 1, max: 3 },
  listButton: 20,
  sections: { min: 1, max: 10 },
  sectionTitle: 24,
  /** Rows across the whole list. */
  totalRows: 10,
  rowId: 200,
  rowTitle: 24,
  rowDescription: 72,

  contactsEntries: 1,
  formattedName: 256,
  /** first_name, last_name, middle_name. */
  namePart: 128,
  /** prefix, suffix. */
  namePrefixSuffix: 32,
  phonesPerCard: 3,
  emailsPerCard: 3,
  urlsPerCard: 3,
  /** org.company, org.department, org.title. */
  orgField: 256,

  /** Currency code of a template currency parameter. */
  currencyCodeLength: 3,
} as const;

/**
 * The customer-service window (spec 4.5.5 rule 1): a non-template message needs an
 * inbound message from the contact within the last 24 hours.
 */
export const SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Request budgets of spec part 8. */
export const BUDGETS = {
  /** Sends per key and per number. */
  sendBurst: { limit: 20, windowMs: 1_000 },
  sendSustained: { limit: 600, windowMs: 60_000 },
  /** Sends across the workspace. */
  workspaceSend: { limit: 1_200, windowMs: 60_000 },
  /** Reads per key. */
  readBurst: { limit: 60, windowMs: 1_000 },
  readSustained: { limit: 3_000, windowMs: 60_000 },
  /** Active media streams per key and number. */
  mediaStreams: 8,
} as const;

/** Length in characters (Unicode code points), the unit of every character limit. */
export function charLength(text: string): number {
  let n = 0;
  // Iterating a string walks code points, not UTF-16 units.
  for (const _ of text) n++;
  return n;
}
