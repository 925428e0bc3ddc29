import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium (`.ci/run` installs it); never a downloaded browser. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Where the browser tests keep their screenshots (gitignored). */
export const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'studio');

/** Generous waits: the machine may be loaded by other work. */
export const UI_TIMEOUT_MS = 90_000;

/** Launches headless Debian chromium, or fails saying how to install it. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `the studio browser tests need Debian's chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    timeout: UI_TIMEOUT_MS,
  });
}

/** A page of the studio with errors of the page collected (a test fails on them). */
export async function openStudio(
  browser: Browser,
  url: string,
): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1500, height: 920 } });
  page.setDefaultTimeout(UI_TIMEOUT_MS);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  // The page must never reach anything but the studio server (no CDN, no internet).
  await page.route('**/*', (route) =>
    route.request().url().startsWith(url) || route.request().url().startsWith('data:')
      ? route.continue()
      : route.abort(),
  );
  await page.goto(url);
  await page.getByTestId('message-box').waitFor();
  return { page, errors };
}

/** Saves a screenshot under test-artifacts/studio. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}
