// The new-gateway wizard's backend step in a real Chromium against web mode (issue #19 item 7): a failed
// Test connection shows the exact command it ran and the whole stderr tail (not its last three lines,
// which for a Node crash are "}" and "Node.js v20…"), and Next stays disabled; a command line pasted into
// the Command or Arguments field is split into words (shell-words), a command line typed into Command runs as
// the program and its arguments (issue [desktop-client] item 5.1), and a space-separated line typed into the
// one-per-line field is flagged with a way to split it.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { quoteCommandLine } from '../../src/shared/shell/shell-words';
import { chromiumAvailable, ensureRendererBuilt, launchChromium, root, startWebMode, type WebModeRun } from './harness';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED wizard browser tests: /usr/bin/chromium is missing (apt-get install -y chromium).');

const everythingBin = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

describe.skipIf(!haveChromium)('new-gateway wizard, backend step (web mode, Chromium)', { timeout: 90_000 }, () => {
  let web: WebModeRun;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let wizard: Locator;

  /** Pastes text into a field the way a user does: clipboard, focus, Ctrl+V (a real paste event). */
  async function paste(field: Locator, text: string) {
    await page.evaluate((t) => navigator.clipboard.writeText(t), text);
    await field.focus();
    await page.keyboard.press('ControlOrMeta+V');
  }

  beforeAll(async () => {
    ensureRendererBuilt();
    web = await startWebMode({ demo: false });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web.url });
    page = await context.newPage();
    await page.goto(`${web.openUrl}#/chain`);
    await page.getByRole('button', { name: 'New gateway…' }).first().click();
    wizard = page.getByRole('dialog', { name: 'New gateway' });
    await wizard.getByLabel('Backend name').fill('probe');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await web?.stop();
  });

  it('a failed test shows the exact command and the whole stderr tail, and Next stays disabled', async () => {
    // A backend that explains itself on its first stderr line, then writes 12 more before it exits.
    const script = "console.error('REASON-AT-THE-TOP: missing API key'); for (let i = 1; i <= 12; i++) console.error('detail ' + i); process.exit(3)";
    await wizard.getByLabel('Backend command').fill(process.execPath);
    await wizard.getByLabel('Backend arguments').fill(`-e\n${script}`);
    await wizard.getByRole('button', { name: 'Test connection' }).click();
    const outcome = wizard.getByTestId('backend-test');
    await expect.poll(() => outcome.getAttribute('role'), { timeout: 45_000 }).toBe('alert');
    expect(await outcome.getByLabel('Command run').textContent()).toBe(quoteCommandLine([process.execPath, '-e', script]));
    const stderr = await outcome.getByLabel('Backend stderr').textContent();
    expect(stderr).toContain('REASON-AT-THE-TOP: missing API key');
    expect(stderr).toContain('detail 12');
    expect(await wizard.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
  });

  it('a command line pasted into Command becomes the command and its arguments, one per line', async () => {
    await wizard.getByLabel('Backend command').fill('');
    await wizard.getByLabel('Backend arguments').fill('');
    await paste(wizard.getByLabel('Backend command'), `${process.execPath} ${everythingBin} stdio`);
    expect(await wizard.getByLabel('Backend command').inputValue()).toBe(process.execPath);
    expect(await wizard.getByLabel('Backend arguments').inputValue()).toBe(`${everythingBin}\nstdio`);
    await wizard.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => wizard.getByTestId('backend-test').textContent(), { timeout: 45_000 }).toMatch(/Connected to .*\d+ tools/);
    expect(await wizard.getByRole('button', { name: 'Next' }).isEnabled()).toBe(true);
  });

  it('a command line pasted into Arguments is split into words (quotes honoured)', async () => {
    await wizard.getByLabel('Backend arguments').fill('');
    await paste(wizard.getByLabel('Backend arguments'), `${everythingBin} stdio --title 'my server'`);
    expect(await wizard.getByLabel('Backend arguments').inputValue()).toBe(`${everythingBin}\nstdio\n--title\nmy server`);
  });

  it('a space-separated line typed into the one-per-line field is flagged and can be split', async () => {
    const args = wizard.getByLabel('Backend arguments');
    await args.fill('');
    await args.pressSequentially(`${everythingBin} stdio`);
    const note = wizard.getByRole('note', { name: 'Arguments with spaces (Backend)' });
    await note.waitFor();
    await note.getByRole('button', { name: 'Split into words' }).click();
    expect(await args.inputValue()).toBe(`${everythingBin}\nstdio`);
    await note.waitFor({ state: 'detached' });
  });

  it('a command line typed into Command runs as the program and its arguments (it was spawned as one word: ENOENT)', async () => {
    const args = wizard.getByLabel('Backend arguments');
    await args.fill('');
    await wizard.getByLabel('Backend command').fill(`${process.execPath} ${everythingBin} stdio`);
    await wizard.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => wizard.getByTestId('backend-test').textContent(), { timeout: 45_000 }).toMatch(/Connected to .*\d+ tools/);
    expect(await wizard.getByRole('button', { name: 'Next' }).isEnabled()).toBe(true);
    // The field says how it is split, so a path with spaces is seen to need quotes.
    expect(await wizard.getByLabel('Run as (Backend)').textContent()).toContain(`${everythingBin} stdio`);
  });
});
