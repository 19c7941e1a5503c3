// Takes the README screenshots of the Chain screen with Chromium against web mode (the demo gateway:
// server-everything + the sample interceptors), each after doing what it shows for real.
// Run after `npm run build`: node --import tsx scripts/screenshots-chain.ts
// At 1440×900, the size the canvas is made readable for (test/e2e/chain-readability.test.ts). Interceptors
// are selected from the palette, as a node may lie outside the visible part of the canvas.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { root } from '../test/e2e/harness';
import { openConsole, shoot, shootBothThemes } from './screenshot-session';

const VIEWPORT = { width: 1440, height: 900 };
const everythingBin = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const { web, browser, page, api, close } = await openConsole(VIEWPORT, '#/chain/demo');
try {
  // Light and dark (`-dark`) of each, but for the canvas, whose dark image (chain-dark) is taken last
  // with the default 'system' theme following the browser's colour scheme.
  const shot = (p: Page, name: string) => shootBothThemes(p, api, `chain-${name}`, { settleMs: 600 });
  await page.getByTestId('chain-node-request-samples/email-redactor').waitFor({ timeout: 60_000 });

  // The demo chain for tools/call as the engine orders it, tool-allowlist in audit (shadow).
  await shoot(page, 'chain-canvas', { settleMs: 600 });

  // The side panel of tool-allowlist: audit mode and its config edited with the generated form.
  await page.getByTestId('palette-item-samples/tool-allowlist').click();
  await page.getByTestId('chain-panel').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await shot(page, 'panel');

  // A priority override: email-redactor moves ahead of secretless-redactor (not saved).
  await page.getByTestId('palette-item-samples/email-redactor').click();
  await page.getByRole('spinbutton', { name: 'Priority' }).fill('-2000000');
  await page.getByRole('spinbutton', { name: 'Priority' }).press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid="chain-node-request-samples/email-redactor"]')?.getAttribute('data-step') === '1');
  await page.getByRole('radio', { name: 'Response' }).click();
  await shot(page, 'reordered-response-phase');
  await page.getByRole('button', { name: 'Undo' }).click();
  await page.getByRole('radio', { name: 'Request' }).click();

  // The JSON tab with a config error pointing at its path.
  await page.getByRole('tab', { name: 'JSON', exact: true }).click();
  const editor = page.getByRole('textbox', { name: 'Gateway config (JSON)' });
  await editor.click();
  const text = await page.evaluate(async () => {
    const token = sessionStorage.getItem('ic-token')!;
    const res = await fetch('/api/call/chain.load', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: JSON.stringify({ id: 'demo' }) });
    return ((await res.json()) as { value: { text: string } }).value.text;
  });
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text.replace('"mode": "audit"', '"mode": "shadow"'));
  await page.getByTestId('json-problems').getByRole('button').first().click();
  await shot(page, 'json-error');
  await page.getByRole('button', { name: 'Undo' }).click();
  await page.getByRole('tab', { name: 'Canvas', exact: true }).click();

  // The wizard, interceptor servers step, after testing the bundled samples.
  await page.getByRole('button', { name: 'New gateway…' }).click();
  const wizard = page.getByRole('dialog', { name: 'New gateway' });
  await wizard.getByLabel('Backend name').fill('everything');
  await wizard.getByLabel('Backend command').fill(process.execPath);
  // First the arguments typed on one line into the one-per-line field, as people do: node gets one
  // argument "<path> stdio", fails, and the wizard shows the exact command and the whole stderr tail, keeps
  // Next disabled and offers to split the line.
  await wizard.getByLabel('Backend arguments').fill(`${everythingBin} stdio`);
  await wizard.getByRole('button', { name: 'Test connection' }).click();
  const stderr = wizard.getByTestId('backend-test').and(page.getByRole('alert')).getByLabel('Backend stderr');
  await stderr.waitFor({ timeout: 30_000 });
  await stderr.evaluate((el) => el.scrollIntoView({ block: 'end' }));
  await shot(page, 'wizard-failed');
  await wizard.getByRole('note', { name: 'Arguments with spaces (Backend)' }).getByRole('button', { name: 'Split into words' }).click();
  await wizard.getByRole('button', { name: 'Test connection' }).click();
  await wizard.getByTestId('backend-test').filter({ hasText: 'Connected' }).waitFor({ timeout: 30_000 });
  await shot(page, 'wizard-backend');
  await wizard.getByRole('button', { name: 'Next' }).click();
  await wizard.getByRole('button', { name: 'Add the bundled samples' }).click();
  await wizard.getByTestId('server-test-samples').filter({ hasText: 'Connected' }).waitFor({ timeout: 30_000 });
  await shot(page, 'wizard-servers');
  await wizard
    .getByRole('button', { name: 'Cancel' })
    .or(wizard.getByRole('button', { name: 'Close' }))
    .first()
    .click();

  // Dark theme (the default 'system' theme follows the browser's colour scheme).
  const dark = await browser.newPage({ viewport: VIEWPORT, colorScheme: 'dark' });
  await dark.goto(`${web.openUrl}#/chain/demo`);
  await dark.getByTestId('chain-node-request-samples/email-redactor').waitFor({ timeout: 30_000 });
  await dark.getByTestId('palette-item-samples/pii-validator').click();
  await shoot(dark, 'chain-dark', { settleMs: 600 });
} finally {
  await close();
}
