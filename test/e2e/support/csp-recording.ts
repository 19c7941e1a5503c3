// What the CSP browser tests share (editor-csp.test.ts in web mode, desktop-csp.test.ts under the desktop
// shell's header): a page that records securitypolicyviolation events from its first script on and its
// console errors, a proof that the recording sees a refusal when there is one, and the edits a user makes in
// the JSON editors (CodeMirror): the Chain screen's JSON tab and the Playground's payload.
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { waitFor } from '../../support/wait-for';

type Recorded = { __csp: string[] };

export interface CspRecording {
  /** The violation events seen so far: `directive blockedURI source:line sample`. */
  violations(): Promise<string[]>;
  /** The console errors that name the Content Security Policy. */
  cspConsoleErrors(): string[];
  /** Nothing refused so far: no violation event, no CSP error in the console. */
  expectNothingRefused(): Promise<void>;
  /**
   * Shows the recording works: a <style> without the page's nonce is refused and both records say so; then
   * the probe is removed and both records are emptied.
   */
  expectProbeStyleRefused(): Promise<void>;
}

/** Starts recording on `page`, from before the app's first script: call it before the page is opened. */
export async function recordCsp(page: Page): Promise<CspRecording> {
  const consoleErrors: string[] = [];
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
  const violations = () => page.evaluate(() => (window as unknown as Recorded).__csp);
  const cspConsoleErrors = () => consoleErrors.filter((m) => /Content Security Policy/i.test(m));
  return {
    violations,
    cspConsoleErrors,
    async expectNothingRefused() {
      expect(await violations()).toEqual([]);
      expect(cspConsoleErrors()).toEqual([]);
    },
    async expectProbeStyleRefused() {
      await page.evaluate(() => document.head.append(Object.assign(document.createElement('style'), { id: 'csp-probe', textContent: '.csp-probe {}' })));
      await waitFor(async () => (await violations()).some((v) => v.startsWith('style-src')), 10_000, 'the probe style to be refused');
      await waitFor(() => cspConsoleErrors().length > 0, 10_000, 'the console error for the probe style');
      await page.evaluate(() => {
        document.getElementById('csp-probe')?.remove();
        (window as unknown as Recorded).__csp.length = 0;
      });
      consoleErrors.length = 0;
    },
  };
}

/** The editor container whose editing area has this accessible name. */
export function jsonEditor(page: Page, label: string): Locator {
  return page.locator('.json-editor', { has: page.getByRole('textbox', { name: label, exact: true }) });
}

/** Types `invalid` (the lint marks it; hovering the marker shows the tooltip), then mends it with `fix` (the mark goes away). */
export async function breakAndFix(page: Page, label: string, invalid: string, fix: () => Promise<void>): Promise<void> {
  const box = jsonEditor(page, label);
  const marker = box.locator('.cm-lint-marker-error');
  await page.keyboard.type(invalid);
  // The linter runs 250 ms after the last edit.
  await marker.first().waitFor({ timeout: 10_000 });
  await marker.first().hover();
  await box.locator('.cm-tooltip-lint').waitFor({ timeout: 10_000 });
  await fix();
  await marker.first().waitFor({ state: 'detached', timeout: 10_000 });
}

/**
 * On the Chain screen of the demo gateway (already open): its JSON tab made invalid and valid again, the lint
 * tooltip shown, search opened with Control+f and closed; nothing refused.
 */
export async function editChainJson(page: Page, csp: CspRecording): Promise<void> {
  await page.locator('.react-flow__node').first().waitFor({ timeout: 60_000 });
  await page.getByRole('tab', { name: 'JSON', exact: true }).click();
  const label = 'Gateway config (JSON)';
  await page.getByRole('textbox', { name: label, exact: true }).click();
  // The editor's own <style> (CodeMirror's, with the page's nonce) was admitted: else its lint marks would stay unstyled.
  await csp.expectNothingRefused();
  // Right after the opening brace: a key without a value breaks the document, a value and a comma mend it.
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('ArrowRight');
  await breakAndFix(page, label, '"csp": ', () => page.keyboard.type('1,'));
  expect(await jsonEditor(page, label).locator('.cm-line').first().textContent()).toBe('{"csp": 1,');

  await page.keyboard.press('Control+f');
  const search = jsonEditor(page, label).locator('.cm-search');
  await search.waitFor();
  await page.keyboard.type('demo');
  await page.keyboard.press('Enter');
  await jsonEditor(page, label).locator('.cm-searchMatch').first().waitFor();
  await page.keyboard.press('Escape');
  await search.waitFor({ state: 'detached' });

  await csp.expectNothingRefused();
}

/** Goes to the Playground's Invoke tab and edits its payload: valid, then invalid and valid again; nothing refused. */
export async function editPlaygroundPayload(page: Page, csp: CspRecording): Promise<void> {
  await page.evaluate(() => (location.hash = '#/playground'));
  await page.getByRole('heading', { name: 'Playground', level: 1 }).waitFor({ timeout: 60_000 });
  await page.getByRole('tablist', { name: 'Playground' }).getByRole('tab', { name: 'Invoke' }).click();
  const label = 'Payload';
  await page.getByRole('textbox', { name: label, exact: true }).click();
  await csp.expectNothingRefused();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  // Typed key by key: the editor closes brackets and quotes, and steps over the closing ones typed.
  await page.keyboard.type('{"name": "echo", "arguments": {"message": "hi"}}');
  await breakAndFix(page, label, ' x', async () => {
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
  });
  expect(await jsonEditor(page, label).locator('.cm-content').textContent()).toBe('{"name": "echo", "arguments": {"message": "hi"}}');

  await csp.expectNothingRefused();
}
