/** An Error for anything thrown (a store rejects its promises with Errors only). */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * A value read back from a store does not have the shape the store wrote (a corrupt or
 * foreign key). Names the key so an operator can inspect or delete it.
 */
export class StoreDataError extends Error {
  override readonly name = 'StoreDataError';
  readonly key: string;

  constructor(key: string, detail: string, options?: { cause?: unknown }) {
    super(`Corrupt value at store key '${key}': ${detail}. Inspect or delete the key.`, options);
    this.key = key;
  }
}
