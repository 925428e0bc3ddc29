/** A control operation that cannot be done (unknown id, invalid input, a conflict). */
export class SandboxControlError extends Error {
  override readonly name = 'SandboxControlError';
  constructor(
    /** `not_found` (404), `invalid_request` (400) or `conflict` (409: already exists, still in use). */
    readonly code: 'not_found' | 'invalid_request' | 'conflict',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
