// The JSON editors (CodeMirror) under the strict CSP while they are edited, in a real Chromium against web
// mode. web.e2e.test.ts visits every screen without a violation but never types into an editor; a user saw
// CSP errors in the console on every edit. So this page records securitypolicyviolation events (from its
// first script on) and console errors, then edits like a user: the Chain screen's JSON tab (invalid JSON,
// its lint marker hovered until the tooltip shows, then valid again; search opened with Control+f and
// closed), and the Playground's payload editor; and none of it may be refused.
// A probe <style> without the page's nonce shows first that the recording sees a violation when there is one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { chromiumAvailable } from './harness';
import { openConsole, type ConsoleSession } from './support/console-session';
import { waitFor } from '../support/wait-for';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED editor CSP browser tests: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

type Recorded = { __csp: string[] };

describe.skipIf(!haveChromium)('JSON editors under the strict CSP while edited (Chromium, web mode)', { timeout: 120_000 }, () => {
  let session: ConsoleSession | undefined;
  let page: Page;
  const consoleErrors: string[] = [];
  const violations = () => page.evaluate(() => (window as unknown as Recorded).__csp);
  const cspConsoleErrors = () => consoleErrors.filter((m) => /Content Security Policy/i.test(m));

  /** Nothing refused so far: no violation event, no CSP error in the console. */
  async function expectNothingRefused(): Promise<void> {
    expect(await violations()).toEqual([]);
    expect(cspConsoleErrors()).toEqual([]);
  }

  /** The editor container whose editing area has this accessible name. */
  const editor = (label: string): Locator => page.locator('.json-editor', { has: page.getByRole('textbox', { name: label, exact: true }) });

  /** Types `invalid` (the lint marks it; hovering the marker shows the tooltip), then mends it with `fix` (the mark goes away). */
  async function breakAndFix(label: string, invalid: string, fix: () => Promise<void>): Promise<void> {
    const box = editor(label);
    const marker = box.locator('.cm-lint-marker-error');
    await page.keyboard.type(invalid);
    // The linter runs 250 ms after the last edit.
    await marker.first().waitFor({ timeout: 10_000 });
    await marker.first().hover();
    await box.locator('.cm-tooltip-lint').waitFor({ timeout: 10_000 });
    await fix();
    await marker.first().waitFor({ state: 'detached', timeout: 10_000 });
  }

  beforeAll(async () => {
    session = await openConsole({ demoTimeoutMs: 90_000 });
    // A page of its own, recording from before the app's first script.
    page = await session.browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as Recorded).__csp = seen;
      document.addEventListener('securitypolicyviolation', (e) =>
        seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber} ${e.sample}`),
      );
    });
    await page.goto(`${session.web.openUrl}#/chain/demo`);
    await page.locator('html[data-app-state="ready"]').waitFor({ state: 'attached', timeout: 30_000 });

    // Nothing refused while the app started; then the recording is shown to work: a <style> without the
    // nonce is refused, and both records say so (and are emptied for the edits).
    await expectNothingRefused();
    await page.evaluate(() => document.head.append(Object.assign(document.createElement('style'), { id: 'csp-probe', textContent: '.csp-probe {}' })));
    await waitFor(async () => (await violations()).some((v) => v.startsWith('style-src')), 10_000, 'the probe style to be refused');
    await waitFor(() => cspConsoleErrors().length > 0, 10_000, 'the console error for the probe style');
    await page.evaluate(() => {
      document.getElementById('csp-probe')?.remove();
      (window as unknown as Recorded).__csp.length = 0;
    });
    consoleErrors.length = 0;
  }, 180_000);

  afterAll(async () => {
    await page?.close();
    await session?.close();
  });

  it("edits the Chain screen's JSON: invalid and valid text, the lint tooltip, search", async () => {
    await page.locator('.react-flow__node').first().waitFor({ timeout: 60_000 });
    await page.getByRole('tab', { name: 'JSON', exact: true }).click();
    const label = 'Gateway config (JSON)';
    await page.getByRole('textbox', { name: label, exact: true }).click();
    // The editor's own <style> (CodeMirror's, with the page's nonce) was admitted: else its lint marks would stay unstyled.
    await expectNothingRefused();
    // Right after the opening brace: a key without a value breaks the document, a value and a comma mend it.
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('ArrowRight');
    await breakAndFix(label, '"csp": ', () => page.keyboard.type('1,'));
    expect(await editor(label).locator('.cm-line').first().textContent()).toBe('{"csp": 1,');

    await page.keyboard.press('Control+f');
    const search = editor(label).locator('.cm-search');
    await search.waitFor();
    await page.keyboard.type('demo');
    await page.keyboard.press('Enter');
    await editor(label).locator('.cm-searchMatch').first().waitFor();
    await page.keyboard.press('Escape');
    await search.waitFor({ state: 'detached' });

    await expectNothingRefused();
  });

  it("edits the Playground's payload: valid, then invalid and valid again", async () => {
    await page.evaluate(() => (location.hash = '#/playground'));
    await page.getByRole('heading', { name: 'Playground', level: 1 }).waitFor({ timeout: 60_000 });
    await page.getByRole('tablist', { name: 'Playground' }).getByRole('tab', { name: 'Invoke' }).click();
    const label = 'Payload';
    await page.getByRole('textbox', { name: label, exact: true }).click();
    await expectNothingRefused();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    // Typed key by key: the editor closes brackets and quotes, and steps over the closing ones typed.
    await page.keyboard.type('{"name": "echo", "arguments": {"message": "hi"}}');
    await breakAndFix(label, ' x', async () => {
      await page.keyboard.press('Backspace');
      await page.keyboard.press('Backspace');
    });
    expect(await editor(label).locator('.cm-content').textContent()).toBe('{"name": "echo", "arguments": {"message": "hi"}}');

    await expectNothingRefused();
  });
});
