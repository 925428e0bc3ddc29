/**
 * Outbound option ids carry their origin: `v<version>.<state>.<option>`. State names
 * and static option ids cannot contain `.`, so the first two dots split the id; the rest
 * is the option (dynamic rows from a variable may contain dots). A tap whose id does not
 * decode, or decodes to another version or state, is stale: the machine re-shows the
 * current menu instead of routing it.
 */

/** The separator between the parts of an encoded option id. */
export const OPTION_ID_SEPARATOR = '.';

/** Encodes an option id for sending. */
export function encodeOptionId(version: number, state: string, option: string): string {
  return `v${version}${OPTION_ID_SEPARATOR}${state}${OPTION_ID_SEPARATOR}${option}`;
}

/** A decoded option id. */
export interface DecodedOptionId {
  readonly version: number;
  readonly state: string;
  readonly option: string;
}

/** Decodes an option id; undefined when it is not one of ours. */
export function decodeOptionId(id: string): DecodedOptionId | undefined {
  const m = /^v(\d{1,9})\.([A-Za-z][A-Za-z0-9_-]{0,63})\.(.+)$/s.exec(id);
  if (m === null) return undefined;
  const [, version, state, option] = m;
  if (version === undefined || state === undefined || option === undefined) return undefined;
  return { version: Number(version), state, option };
}
