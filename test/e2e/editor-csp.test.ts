// The JSON editors (CodeMirror) under the strict CSP while they are edited, in a real Chromium against web
// mode. web.e2e.test.ts visits every screen without a violation but never types into an editor; a user saw
// CSP errors in the console on every edit. So this page records securitypolicyviolation events (from its
// first script on) and console errors, then edits like a user: the Chain screen's JSON tab (invalid JSON,
// its lint marker hovered until the tooltip shows, then valid again; search opened with Control+f and
// closed), and the Playground's payload editor; and none of it may be refused.
// A probe <style> without the page's nonce shows first that the recording sees a violation when there is one.
// The recording and the edits are shared with desktop-csp.test.ts (the same under the desktop shell's header):
// support/csp-recording.ts.
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumAvailable } from './harness';
import { openConsole, type ConsoleSession } from './support/console-session';
import { editChainJson, editPlaygroundPayload, recordCsp, type CspRecording } from './support/csp-recording';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED editor CSP browser tests: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

describe.skipIf(!haveChromium)('JSON editors under the strict CSP while edited (Chromium, web mode)', { timeout: 120_000 }, () => {
  let session: ConsoleSession | undefined;
  let page: Page;
  let csp: CspRecording;

  beforeAll(async () => {
    session = await openConsole({ demoTimeoutMs: 90_000 });
    // A page of its own, recording from before the app's first script.
    page = await session.browser.newPage({ viewport: { width: 1440, height: 900 } });
    csp = await recordCsp(page);
    await page.goto(`${session.web.openUrl}#/chain/demo`);
    await page.locator('html[data-app-state="ready"]').waitFor({ state: 'attached', timeout: 30_000 });

    // Nothing refused while the app started; then the recording is shown to work: a <style> without the
    // nonce is refused, and both records say so (and are emptied for the edits).
    await csp.expectNothingRefused();
    await csp.expectProbeStyleRefused();
  }, 180_000);

  afterAll(async () => {
    await page?.close();
    await session?.close();
  });

  it("edits the Chain screen's JSON: invalid and valid text, the lint tooltip, search", async () => {
    await editChainJson(page, csp);
  });

  it("edits the Playground's payload: valid, then invalid and valid again", async () => {
    await editPlaygroundPayload(page, csp);
  });
});
