/** One readable problem of a flow (see {@link Diagnostic} for the linter's richer form). */
export interface FlowIssue {
  /** Path inside the flow, e.g. `states.welcome.menu.options[1].title`. */
  readonly path: string;
  readonly message: string;
}

/**
 * Thrown by `defineFlow` and `compileFlow` when a flow is not valid: carries every issue;
 * the message lists them one per line.
 */
export class FlowError extends Error {
  override readonly name = 'FlowError';
  readonly issues: readonly FlowIssue[];
  constructor(flowId: string, issues: readonly FlowIssue[], options?: { cause?: unknown }) {
    super(
      `flow ${flowId} is not valid:\n${issues.map((i) => `  ${i.path === '' ? '(root)' : i.path}: ${i.message}`).join('\n')}`,
      options,
    );
    this.issues = issues;
  }
}
