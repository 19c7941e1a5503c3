// A resource template in the Playground's Client tab, in a real Chromium against web mode: one input per
// URI variable, the server's suggestions for the variable being typed (completion/complete, ref/resource,
// from server-everything over stdio), a click fills one in, and the URI it expands to is read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { serverEverythingEntry } from '../../src/main/services/examples';
import { chromiumAvailable } from './harness';
import { openConsole, type ConsoleSession } from './support/console-session';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED client template browser tests: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

describe.skipIf(!haveChromium)('Playground Client: resource template form with completions (Chromium, web mode)', { timeout: 90_000 }, () => {
  let session: ConsoleSession | undefined;
  let page: Page;

  beforeAll(async () => {
    session = await openConsole({ demoTimeoutMs: 90_000, viewport: { width: 1400, height: 900 } });
    ({ page } = session);
    await page.evaluate(() => (location.hash = '#/playground'));
    await page.getByRole('heading', { name: 'Playground', level: 1 }).waitFor({ timeout: 60_000 });
  }, 180_000);

  afterAll(async () => {
    await session?.close();
  });

  it('suggests values for a template variable as it is typed and reads the URI they fill', async () => {
    await page.getByRole('tablist', { name: 'Playground' }).getByRole('tab', { name: 'Client' }).click();
    await page.getByRole('radiogroup', { name: 'Connect to' }).getByText('A command (stdio)').click();
    await page.getByLabel('Server command').fill(`"${process.execPath}" "${serverEverythingEntry()!}" stdio`);
    await page.getByRole('button', { name: /^(Connect|Reconnect)$/ }).click();
    await expect.poll(() => page.getByRole('status', { name: 'Client session' }).textContent(), { timeout: 30_000 }).toContain('server-everything');

    await page.getByRole('tablist', { name: 'Catalog sections' }).getByRole('tab', { name: 'Templates' }).click();
    await page.getByRole('button', { name: 'Templates: Dynamic Text Resource' }).click();
    const variable = page.getByRole('textbox', { name: 'Variable resourceId' });
    // server-everything suggests a positive integer back and nothing for anything else.
    await variable.pressSequentially('x');
    await page.getByLabel('Suggestions for resourceId').getByText('no suggestion').waitFor();
    await variable.fill('');
    await variable.pressSequentially('17');
    await page.getByLabel('Suggestions for resourceId').getByRole('button', { name: '17' }).click();
    expect(await variable.inputValue()).toBe('17');
    expect(await page.getByLabel('Resource URI').textContent()).toBe('demo://resource/dynamic/text/17');
    await page.getByRole('button', { name: 'Read resource' }).click();
    await expect
      .poll(() => page.getByRole('region', { name: 'Call' }).textContent(), { timeout: 15_000 })
      .toContain('Resource 17: This is a plaintext resource');
  });
});
