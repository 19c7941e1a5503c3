// Takes the README screenshots of the Playground with Chromium against web mode (the demo gateway:
// server-everything + the sample interceptors), each after doing what it shows for real.
// Run after `npm run build`: node --import tsx scripts/screenshots-playground.ts
import type { Page } from 'playwright-core';
import { waitForDemoGateway } from '../test/e2e/support/page-api';
import { openConsole, shootBothThemes } from './screenshot-session';

const { page, api, close } = await openConsole({ width: 1440, height: 900 });
try {
  await waitForDemoGateway(api);
  await page.evaluate(() => (location.hash = '#/playground'));
  const tab = (name: string) => page.getByRole('tablist', { name: 'Playground' }).getByRole('tab', { name }).click();
  const setEditor = async (label: string, text: string) => {
    await page.getByRole('textbox', { name: label, exact: true }).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(text);
  };
  // Light and dark (`-dark`) of each.
  const shot = (p: Page, name: string) => shootBothThemes(p, api, `playground-${name}`, { settleMs: 400, scrollToTop: true });

  // Invoke: email-redactor from its template → the mutation diff.
  const interceptor = page.getByLabel('Interceptor', { exact: true });
  await interceptor.locator('option', { hasText: 'email-redactor' }).waitFor({ state: 'attached', timeout: 30_000 });
  await interceptor.selectOption({ label: 'email-redactor · mutation' });
  await page.getByRole('button', { name: 'Invoke', exact: true }).click();
  await page.getByRole('list', { name: 'Mutation diff' }).waitFor();
  await shot(page, 'invoke');

  // Invoke: pii-validator on an SSN → its message, the path highlighted in the payload.
  await interceptor.selectOption({ label: 'pii-validator · validation' });
  await setEditor('Payload', JSON.stringify({ name: 'echo', arguments: { message: 'my ssn is 078-05-1120' } }, null, 2));
  await page.getByRole('button', { name: 'Invoke', exact: true }).click();
  await page.locator('.cm-json-highlight').first().waitFor();
  await shot(page, 'invoke-validation');

  // Invoke: tool-allowlist with the config the demo gateway runs it with (filled in and sent, so echo is
  // allowed), after leaving the Playground and coming back: the run history is still there.
  await page.evaluate(() => (location.hash = '#/traffic'));
  await page.getByRole('heading', { name: 'Traffic', level: 1 }).waitFor();
  await page.evaluate(() => (location.hash = '#/playground'));
  await interceptor.locator('option', { hasText: 'tool-allowlist' }).waitFor({ state: 'attached', timeout: 30_000 });
  await interceptor.selectOption({ label: 'tool-allowlist · validation' });
  const config = page.getByRole('region', { name: 'Invocation' }).locator('details', { has: page.locator('summary', { hasText: 'Config' }) });
  if ((await config.getAttribute('open')) === null) await config.locator('summary').click();
  await page.getByRole('button', { name: 'Invoke', exact: true }).click();
  await page.getByRole('status', { name: 'Validation verdict' }).waitFor();
  await shot(page, 'invoke-allowlist');

  // Dry-run of the demo chain.
  await tab('Dry-run chain');
  await page.getByRole('button', { name: 'Run chain' }).click();
  await page.getByRole('region', { name: 'Dry-run trace' }).first().getByText('Allowed', { exact: true }).waitFor();
  await shot(page, 'dry-run');

  // Client: echo through the demo gateway.
  await tab('Client');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await page.getByRole('status', { name: 'Client session' }).waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Tools: echo' }).click();
  await page.getByRole('group', { name: 'Arguments of echo' }).getByLabel('message').fill('Send the invoice to frank@example.com');
  await page.getByRole('button', { name: 'Call tool' }).click();
  await page.getByRole('region', { name: 'Call' }).getByLabel('Text content').waitFor();
  await shot(page, 'client');

  // Client answering a sampling request from server-everything: the call waits in "Calling…" while the
  // reply form is filled in Pending requests.
  const sampling = async (name: string, reply: string) => {
    await page.getByRole('button', { name: 'Tools: trigger-sampling-request' }).click();
    await page.getByRole('group', { name: 'Arguments of trigger-sampling-request' }).getByLabel('prompt').fill('Summarise what the gateway blocked today');
    await page.getByRole('button', { name: 'Call tool' }).click();
    const form = page.getByRole('form', { name: 'Sampling reply' });
    await form.waitFor({ timeout: 30_000 });
    await form.getByLabel('Model').fill('reviewer-in-the-loop');
    await form.getByLabel('Reply text').fill(reply);
    await shot(page, name);
    await form.getByRole('button', { name: 'Send reply' }).click();
    await page.getByRole('region', { name: 'Call' }).getByLabel('Text content').first().waitFor();
  };
  // Taller, so that the waiting call shows under the reply form.
  await page.setViewportSize({ width: 1440, height: 1180 });
  await sampling('client-sampling', 'Two calls were blocked: both by samples/pii-validator, for an SSN in the arguments.');
  await page.setViewportSize({ width: 1440, height: 900 });

  // Failure simulation armed.
  await tab('Failure simulation');
  await page.getByLabel('Simulation interceptor').selectOption('pii-validator');
  await page.getByLabel('Invocation count').fill('3');
  await page.getByRole('button', { name: 'Arm', exact: true }).click();
  await page.getByRole('alert', { name: 'Failure simulation armed' }).waitFor();
  await shot(page, 'simulation');
  await api('simulation.disarm', { id: 'demo' });
} finally {
  await close();
}
