/**
 * Whose state a SQLite state file is: the key id of the API key that last ran on it (a
 * non-secret fingerprint, see `keyIdOf`) and an operator label, in its `meta` table. A
 * restore compares them with the bot it restores for (see sqlite-backup.ts).
 */
import type Database from 'libsql';
import { z } from 'zod';

/** What a state file says about the bot it belongs to. */
export interface StateIdentity {
  /** `k_` + 16 hex characters of the key's SHA-256 (never the key). */
  readonly keyId?: string;
  /** A name the operator gave the deployment (`SWITCHBOARD_LABEL`), e.g. `acme-support-prod`. */
  readonly label?: string;
}

const KEY_ID = 'key_id';
const LABEL = 'label';

/** A key id as `keyIdOf` makes it. */
export const KeyIdSchema = z.string().regex(/^k_[0-9a-f]{16}$/, 'a key id like k_0123456789abcdef');
/** An operator label: 1–100 printable characters. */
export const StateLabelSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[^\p{Cc}]+$/u, 'printable characters');

/** Reads the identity recorded in a state file (fields absent when never recorded). */
export function readStateIdentity(db: Database.Database): StateIdentity {
  const rows = db
    .prepare('SELECT key, value FROM meta WHERE key IN (?, ?)')
    .raw()
    .all(KEY_ID, LABEL) as [string, string][];
  const values = new Map(rows);
  const keyId = KeyIdSchema.safeParse(values.get(KEY_ID));
  const label = StateLabelSchema.safeParse(values.get(LABEL));
  return {
    ...(keyId.success ? { keyId: keyId.data } : {}),
    ...(label.success ? { label: label.data } : {}),
  };
}

/**
 * Records the key id (and the label, when given) in the state file; answers what was
 * recorded before, so a caller can say when it changed (a rotated key, another bot's file).
 * @example
 * const before = recordStateIdentity(store.database, { keyId: keyIdOf(apiKey), label: 'prod' });
 */
export function recordStateIdentity(
  db: Database.Database,
  identity: { readonly keyId: string; readonly label?: string | undefined },
): StateIdentity {
  const keyId = KeyIdSchema.parse(identity.keyId);
  const label = identity.label === undefined ? undefined : StateLabelSchema.parse(identity.label);
  const before = readStateIdentity(db);
  const put = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
  put.run(KEY_ID, keyId);
  if (label !== undefined) put.run(LABEL, label);
  return before;
}
