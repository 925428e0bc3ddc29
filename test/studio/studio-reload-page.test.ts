import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startStudio, type Studio } from '../../src/studio/studio.js';
import { BROKEN_FLOW, reloadFlow, SHOWCASE_FLOW, tempFlow } from './reload-fixtures.js';
import { launchChromium, openStudio, screenshot } from './studio-browser.js';

const TEST_MS = 300_000;

describe('switchboard studio in a browser (hot reload)', () => {
  let browser: Browser;
  let studio: Studio | undefined;
  let page: Page | undefined;
  let errors: string[] = [];
  let temp: ReturnType<typeof tempFlow> | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
  }, TEST_MS);
  afterAll(async () => {
    await browser?.close();
  }, TEST_MS);
  afterEach(async () => {
    await page?.close();
    await studio?.close();
    temp?.remove();
    expect(errors).toEqual([]);
  }, TEST_MS);
  const open = async (text: string): Promise<Page> => {
    temp = tempFlow(text);
    studio = await startStudio({ bot: temp.file, port: 0, debounceMs: 100 });
    ({ page, errors } = await openStudio(browser, studio.url));
    return page;
  };

  it(
    'should show a broken flow file with file:line, keep the bot running, and clear it when fixed',
    async () => {
      const p = await open(reloadFlow());
      const chat = p.getByTestId('chat');
      await p.getByTestId('message-box').fill('hi');
      await p.getByTestId('message-box').press('Enter');
      await chat.getByRole('button', { name: 'Apples' }).waitFor();
      temp!.write(BROKEN_FLOW);
      const error = p.getByTestId('load-error');
      await error.waitFor();
      expect(await error.textContent()).toContain(`${temp!.file}:10:36 error`);
      await p
        .getByTestId('validation-error')
        .getByText(/unknown state "banana"/)
        .waitFor();
      await screenshot(p, '09-broken-flow-file');
      // The previous bot keeps answering.
      await chat.getByRole('button', { name: 'Apples' }).click();
      await chat.getByText('How many apples?').waitFor();
      temp!.write(reloadFlow());
      await error.waitFor({ state: 'detached' });
      await p.getByText('✓ no errors or warnings').waitFor();
    },
    TEST_MS,
  );

  it(
    'should hot-reload a flow edit and keep the running conversation',
    async () => {
      const p = await open(reloadFlow());
      const chat = p.getByTestId('chat');
      await p.getByTestId('message-box').fill('hi');
      await p.getByTestId('message-box').press('Enter');
      await chat.getByRole('button', { name: 'Apples' }).click();
      await chat.getByText('How many apples?').waitFor();
      await p.locator('[data-testid=diagram] g.sb-current[data-state="apples"]').waitFor();
      temp!.write(reloadFlow({ doneText: 'Hot reloaded: {{count}} apples coming up!' }));
      await p
        .getByTestId('timeline')
        .getByText(/reloaded reload-demo v1: 1 kept, 0 restarted/)
        .waitFor();
      // The diagram is redrawn and the conversation is still where it was.
      await p.locator('[data-testid=diagram] g.sb-current[data-state="apples"]').waitFor();
      await p.getByTestId('message-box').fill('3');
      await p.getByTestId('message-box').press('Enter');
      await chat.getByText('Hot reloaded: 3 apples coming up!').waitFor();
      expect(await chat.getByText('Apples or bananas?').count()).toBe(1);
      await p.getByTestId('variables').getByText('"3"').waitFor();
      await screenshot(p, '10-hot-reload-kept-conversation');
    },
    TEST_MS,
  );

  it(
    'should draw templates, media, locations, contact cards and lists as a phone does',
    async () => {
      const p = await open(SHOWCASE_FLOW);
      const chat = p.getByTestId('chat');
      await p.getByTestId('message-box').fill('hi');
      await p.getByTestId('message-box').press('Enter');
      await chat.getByText('Hi Ada, see you on Tuesday 10:00.').waitFor();
      await chat.locator('.template-params', { hasText: 'Tuesday 10:00' }).waitFor();
      await chat.locator('.media-card', { hasText: 'invoice-42.pdf' }).waitFor();
      await chat.getByText('Your new lamp').waitFor();
      await chat.locator('.location', { hasText: 'Pickup point' }).waitFor();
      await chat.locator('.contact-card', { hasText: 'Lamp Store' }).waitFor();
      await chat.getByRole('button', { name: /Pick a day/ }).click();
      await p.getByRole('dialog').getByText('13:00 to 17:00').waitFor();
      await p.getByRole('dialog').getByText('This week').waitFor();
      await screenshot(p, '11-bot-message-types');
      await p
        .getByRole('dialog')
        .getByRole('button', { name: /Tuesday/ })
        .click();
      await chat.getByText('Thanks, see you then!').waitFor();
      await chat.locator('.tapped', { hasText: 'Tuesday' }).waitFor();
    },
    TEST_MS,
  );
});
