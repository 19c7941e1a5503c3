// A resource template in the Playground's Client tab, in a real Chromium against web mode: one input per
// URI variable, the server's suggestions for the variable being typed (completion/complete, ref/resource,
// from server-everything over stdio), a click fills one in, and the URI it expands to is read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { serverEverythingEntry } from '../../src/main/services/examples';
import { chromiumAvailable } from './harness';
import { openConsole, type ConsoleSession } from './support/console-session';
import { connectClientTab } from './support/client-tab';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED client template browser tests: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

describe.skipIf(!haveChromium)('Playground Client: resource template form with completions (Chromium, web mode)', { timeout: 90_000 }, () => {
  let session: ConsoleSession | undefined;
  let page: Page;

  beforeAll(async () => {
    session = await openConsole({ demoTimeoutMs: 90_000, viewport: { width: 1400, height: 900 } });
    ({ page } = session);
  }, 180_000);

  afterAll(async () => {
    await session?.close();
  });

  it('suggests values for a template variable as it is typed and reads the URI they fill', async () => {
    await connectClientTab(page, { kind: 'stdio', command: `"${process.execPath}" "${serverEverythingEntry()!}" stdio` }, 'server-everything');

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
