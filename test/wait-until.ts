/**
 * Polls `check` until it is true or `deadlineMs` real milliseconds have passed; returns
 * the last answer. The one polling helper of the tests (a deadline, never a fixed sleep).
 */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  deadlineMs: number,
  everyMs = 50,
): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return check();
}
