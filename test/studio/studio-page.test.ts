import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DEFAULT_DEV_BOT } from '../../src/cli/dev-command.js';
import { startStudio, type Studio } from '../../src/studio/studio.js';
import { launchChromium, openStudio, screenshot, UI_TIMEOUT_MS } from './studio-browser.js';

const TEST_MS = 300_000;
const ADA = '+15551230001';

/** A 2x2 red PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4z8DAwMDAxAABAA4LAQG8mGTyAAAAAElFTkSuQmCC',
  'base64',
);

describe('switchboard studio in a browser (support-desk)', () => {
  let browser: Browser;
  let studio: Studio;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    browser = await launchChromium();
  }, TEST_MS);
  afterAll(async () => {
    await browser?.close();
  }, TEST_MS);
  const open = async (): Promise<void> => {
    studio = await startStudio({ bot: DEFAULT_DEV_BOT, port: 0, watch: false });
    ({ page, errors } = await openStudio(browser, studio.url));
  };
  afterEach(async () => {
    await page?.close();
    await studio?.close();
    expect(errors).toEqual([]);
  }, TEST_MS);
  const chat = () => page.getByTestId('chat');
  const botMessages = () => chat().getByTestId('bot-message');
  const say = async (text: string): Promise<void> => {
    await page.getByTestId('message-box').fill(text);
    await page.getByTestId('message-box').press('Enter');
    await chat().getByText(text, { exact: true }).first().waitFor();
  };

  it(
    'should answer "hi" + Enter with the menu, and an option tap with its reply',
    async () => {
      await open();
      // The keyboard focus is in the customer's message box on load: type at once.
      expect(await page.evaluate("document.activeElement?.getAttribute('data-testid')")).toBe(
        'message-box',
      );
      // The header names the bot by its folder, not by where it lies on this disk.
      await expect
        .poll(() => page.locator('.bot-name').textContent(), { timeout: UI_TIMEOUT_MS })
        .toMatch(/^\s*support-desk · /);
      expect(await page.locator('.bot-name').textContent()).not.toContain('/');
      await page.keyboard.type('hi');
      await page.keyboard.press('Enter');
      await chat().getByText("Hi Ada Lovelace! I'm the support desk assistant.").waitFor();
      await chat().getByText('How can I help you today?').waitFor();
      for (const title of ['Common questions', 'Talk to a person', 'Nothing, thanks'])
        await chat().getByRole('button', { name: title }).waitFor();
      await chat().getByRole('button', { name: 'Common questions' }).click();
      await chat().getByText('Pick a question.').waitFor();
      // A list: its button opens the sections with rows and descriptions.
      await chat()
        .getByRole('button', { name: /Questions/ })
        .click();
      const sheet = page.getByRole('dialog');
      await sheet.getByText('Frequently asked').waitFor();
      await sheet.getByText('How long delivery takes').waitFor();
      await screenshot(page, '01-list-sheet');
      await sheet.getByRole('button', { name: /Shipping times/ }).click();
      await chat()
        .getByText('Orders ship within 1 business day and arrive in 2 to 4 days.')
        .waitFor();
      await chat().getByRole('button', { name: 'Yes, show the menu' }).waitFor();
      // Flow panel: the live state is highlighted on the diagram, with per-state figures.
      await page.locator('[data-testid=diagram] g.sb-current[data-state="more"]').waitFor();
      await page.getByTestId('current-state').getByText('more').waitFor();
      const faqStats = page.locator('[data-testid=diagram] g[data-state="faq"] .sb-stats');
      await expect
        .poll(() => faqStats.textContent(), { timeout: UI_TIMEOUT_MS })
        .toMatch(/^1× · ↓0 · med /);
      await page.getByTestId('timeline').getByText('state faq → more').waitFor();
      await page.getByTestId('variables').getByText('more').waitFor();
      // Delivery ticks come from the status callbacks.
      await expect
        .poll(() => chat().getByTestId('tick').first().getAttribute('title'), {
          timeout: UI_TIMEOUT_MS,
        })
        .toMatch(/delivered|read/);
      await screenshot(page, '02-menu-and-reply');
    },
    TEST_MS,
  );

  it(
    'should keep the bot silent while a teammate owns the conversation, and resume on release',
    async () => {
      await open();
      await page.getByTestId('conversation').filter({ hasText: 'Grace Hopper' }).click();
      await page.locator('.phone-name', { hasText: 'Grace Hopper' }).waitFor();
      await say('hi');
      await chat().getByRole('button', { name: 'Talk to a person' }).click();
      await chat()
        .getByText(/asking a teammate to join/)
        .waitFor();
      await page.getByRole('button', { name: 'Take over' }).click();
      await page.getByTestId('human-badge').waitFor();
      await page.getByText('A teammate owns this chat').waitFor();
      const sentBefore = studio.runtime.sandbox.control.sent().length;
      const shownBefore = await botMessages().count();
      await say('hello? is anyone there');
      await studio.runtime.settle();
      expect(studio.runtime.sandbox.control.sent().length).toBe(sentBefore);
      expect(await botMessages().count()).toBe(shownBefore);
      await page.getByTestId('teammate-reply').fill('Hi Grace, Sam from support here.');
      await page.getByRole('button', { name: 'Send as teammate' }).click();
      await chat().locator('.bubble.teammate', { hasText: 'Sam from support here' }).waitFor();
      await screenshot(page, '03-taken-over-teammate-reply');
      await page.getByRole('button', { name: 'Release to API' }).click();
      await chat().getByText("I'm back. Thanks for your patience!").waitFor();
      await page.getByRole('button', { name: 'Take over' }).waitFor();
      expect(await page.getByTestId('human-badge').count()).toBe(0);
      await page
        .getByTestId('timeline')
        .getByText('released to the API (Release to API)')
        .waitFor();
      await screenshot(page, '04-released');
    },
    TEST_MS,
  );

  it(
    'should show the timeout message when the clock is advanced, and the window closing',
    async () => {
      await open();
      await say('hi');
      await chat().getByText('How can I help you today?').waitFor();
      await page.getByRole('button', { name: '+1 h' }).click();
      await chat().getByText("I'll close this chat for now. Write to us again any time!").waitFor();
      await page.getByTestId('timeline').getByText('clock advanced by 1h').waitFor();
      await page
        .getByTestId('timeline')
        .getByText(/timer fired/)
        .waitFor();
      // 23 h later the window is in its last hour; 25 h after the last message it is closed.
      await page.getByLabel('advance the clock by').fill('22h30m');
      await page.getByRole('button', { name: 'Advance' }).click();
      await page
        .getByTestId('window')
        .getByText(/window closing/)
        .waitFor();
      await screenshot(page, '05-clock-window-closing');
      await page.getByRole('button', { name: '+25 h' }).click();
      await page
        .getByTestId('window')
        .getByText(/window closed/)
        .waitFor();
      // The drop-off of the welcome state is drawn on the diagram.
      const stats = page.locator('[data-testid=diagram] g[data-state="welcome"] .sb-stats');
      await expect
        .poll(() => stats.textContent(), { timeout: UI_TIMEOUT_MS })
        .toMatch(/^1× · ↓1 · med 1h/);
      await stats.scrollIntoViewIfNeeded();
      await screenshot(page, '06-clock-timeout-window-closed');
    },
    TEST_MS,
  );

  it(
    'should send images, documents, locations and contact cards as the customer, from several customers',
    async () => {
      await open();
      await say('hi');
      await page
        .getByTestId('image-input')
        .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: PNG });
      const photo = chat().locator('img.photo');
      await photo.waitFor();
      // Rendered from the sandbox's media bytes.
      await expect
        .poll(
          () => photo.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
          { timeout: UI_TIMEOUT_MS },
        )
        .toBe(2);
      await chat()
        .getByText('Sorry, I can only read text here. Type "menu" to see the options.')
        .first()
        .waitFor();
      await page.getByTestId('document-input').setInputFiles({
        name: 'invoice.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('%PDF-1.4 test'),
      });
      await chat().getByText('invoice.pdf').waitFor();
      await page.getByRole('button', { name: 'Send a location' }).click();
      await page.getByLabel('place name').fill('Dam Square');
      await page.getByRole('button', { name: 'Send location' }).click();
      await chat().locator('.location', { hasText: '52.3731, 4.8922' }).waitFor();
      await page.getByRole('button', { name: 'Send a contact card' }).click();
      await page.getByRole('button', { name: 'Send contact' }).click();
      await chat().locator('.contact-card', { hasText: 'Grace Hopper' }).waitFor();
      const media = studio.runtime.sandbox.control
        .messages(ADA)
        .filter((m) => m.direction === 'inbound');
      expect(media.map((m) => m.type)).toEqual([
        'text',
        'image',
        'document',
        'location',
        'contacts',
      ]);
      await screenshot(page, '07-attachments');
      // A new customer: its own conversation in the inbox, next to Ada's.
      await page.getByTestId('add-customer').click();
      await page.locator('.phone-name', { hasText: 'Customer 4' }).waitFor();
      await say('hello');
      await chat().getByText("Hi Customer 4! I'm the support desk assistant.").waitFor();
      const rows = page.getByTestId('conversation');
      await expect
        .poll(() => rows.filter({ hasText: 'welcome' }).count(), { timeout: UI_TIMEOUT_MS })
        .toBe(2);
      await screenshot(page, '08-inbox-several-customers');
    },
    TEST_MS,
  );
});
