import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DEV_BOT } from '../../../src/cli/dev-command.js';
import { openAttachedStore } from '../../../src/studio/attach/attach-store.js';
import {
  startAttachedStudio,
  type AttachedStudio,
} from '../../../src/studio/attach/attached-studio.js';
import { SqliteStore } from '../../../src/store/sqlite-store.js';
import type { Harness } from '../../engine/harness.js';
import { launchChromium, screenshot, UI_TIMEOUT_MS } from '../studio-browser.js';
import { ADA, fingerprint, runSupportDesk } from './attach-fixture.js';

const TEST_MS = 300_000;
const TOKEN = 'browser-attach-token-0123456789';

describe('switchboard studio --attach in a browser (support desk on a SQLite state file)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-attach-page-'));
  const path = join(dir, 'state.db');
  let h: Harness;
  let browser: Browser;
  let studio: AttachedStudio;
  let page: Page;
  const errors: string[] = [];
  const requests: Request[] = [];
  const foreign: string[] = [];

  beforeAll(async () => {
    h = await runSupportDesk(() => new SqliteStore({ path, backgroundCheckpoints: false }));
    browser = await launchChromium();
    studio = await startAttachedStudio({
      bot: DEFAULT_DEV_BOT,
      store: await openAttachedStore({ kind: 'sqlite', path }),
      access: { host: '127.0.0.1', token: TOKEN },
      pollMs: 250,
    });
  }, TEST_MS);
  afterAll(async () => {
    await page?.close();
    await browser?.close();
    await studio?.close();
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  }, TEST_MS);

  it(
    'should show the real conversation with its timeline and diagram, send nothing, write nothing, and reach no other origin',
    async () => {
      const before = fingerprint(path);
      const sentBefore = h.sandbox.control.sent().length;
      const origin = new URL(studio.url).origin;
      page = await browser.newPage({ viewport: { width: 1500, height: 920 } });
      page.setDefaultTimeout(UI_TIMEOUT_MS);
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('request', (r) => requests.push(r));
      await page.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith(`${origin}/`) || url.startsWith('data:')) return route.continue();
        foreign.push(url);
        return route.abort();
      });
      await page.goto(`${studio.url}?token=${TOKEN}`);
      // The token left the address at once (a cookie carries the session).
      expect(page.url()).toBe(studio.url);

      await page.getByTestId('attached').waitFor();
      expect(await page.getByTestId('attached').textContent()).toContain('read-only');
      expect(await page.getByTestId('attached').textContent()).toContain('SQLite state file');
      const rows = page.getByTestId('conversation');
      await expect.poll(() => rows.count(), { timeout: UI_TIMEOUT_MS }).toBe(2);
      await rows.filter({ hasText: 'Ada' }).click();

      const chat = page.getByTestId('chat');
      await chat.getByText('where is my order', { exact: true }).waitFor();
      await chat.getByText('hi', { exact: true }).waitFor();
      const sentToAda = h.sandbox.control.sent().filter((s) => s.to === ADA);
      expect(await chat.getByTestId('bot-message').count()).toBe(sentToAda.length);

      const timeline = page.getByTestId('timeline');
      await timeline.locator('.tl-inbound').first().waitFor();
      expect(await timeline.locator('.tl-send').count()).toBe(sentToAda.length);
      expect(await timeline.locator('.tl-transition').count()).toBeGreaterThan(0);

      // The diagram marks Ada's state and carries the per-state figures.
      await page.getByTestId('current-state').waitFor();
      await page.locator('[data-testid="diagram"] .sb-current').waitFor();
      await page.locator('[data-testid="diagram"] .sb-stats').first().waitFor();

      // No control that sends or changes state is there.
      expect(await page.getByTestId('message-box').count()).toBe(0);
      expect(await page.getByTestId('add-customer').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Take over' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: '+1 h' }).count()).toBe(0);
      await page.getByTestId('read-only').waitFor();
      await screenshot(page, 'attach-sqlite');

      expect(requests.filter((r) => r.method() !== 'GET').map((r) => r.url())).toEqual([]);
      expect(foreign).toEqual([]);
      expect(fingerprint(path)).toBe(before);
      expect(h.sandbox.control.sent().length).toBe(sentBefore);

      // The bot runs again on the file: the page follows by itself (live events).
      const store = new SqliteStore({ path, backgroundCheckpoints: false });
      await h.restart({ store });
      h.clock.advance(30_000);
      await h.say(ADA, 'menu');
      await h.bot.idle();
      await h.bot.stop();
      await store.close();
      await chat.getByText('menu', { exact: true }).waitFor();
      expect(foreign).toEqual([]);
      expect(errors).toEqual([]);
    },
    TEST_MS,
  );
});
