/** The error thrown when a message is built or sent with content that breaks the rules. */
import { formatIssue, type MessageIssue } from './issues.js';

/**
 * A message failed validation. `issues` lists every problem; `message` joins them
 * as `path: message` lines.
 */
export class MessageValidationError extends Error {
  override readonly name = 'MessageValidationError';
  readonly issues: readonly MessageIssue[];

  constructor(issues: readonly MessageIssue[], options?: { cause?: unknown }) {
    super(
      issues.length === 1
        ? `Invalid message: ${formatIssue(issues[0]!)}`
        : `Invalid message (${issues.length} issues):\n${issues.map((i) => `- ${formatIssue(i)}`).join('\n')}`,
      options,
    );
    this.issues = issues;
  }
}
