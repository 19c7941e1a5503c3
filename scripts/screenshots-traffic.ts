// Takes the README screenshots of Traffic and Sinks with Chromium against web mode (the demo gateway:
// server-everything + the sample interceptors), after sending real traffic with an MCP client and doing
// for real what each picture shows (filter suggestions, replay, edit & replay, bulk replay); each in the
// light and the dark theme (`-dark`).
// Run after `npm run build`: node --import tsx scripts/screenshots-traffic.ts
import type { Page } from 'playwright-core';
import { waitForDemoGateway } from '../test/e2e/support/page-api';
import { connectDemoClient, openConsole, shootBothThemes } from './screenshot-session';

const { web, page, api, close } = await openConsole({ width: 1440, height: 900 });
try {
  await waitForDemoGateway(api);
  const shot = (p: Page, name: string) => shootBothThemes(p, api, name, { settleMs: 500 });

  // Real traffic through the demo gateway.
  const client = await connectDemoClient(web);
  const messages = [
    'Weekly report for bob@example.com',
    'Status of order 1182',
    'my ssn is 078-05-1120',
    'forward the invoice to carol.smith@example.org and dave@example.net',
    'What is the weather in Lisbon?',
    'social security number 219-09-9999 for the form',
    'ping the on-call engineer',
  ];
  await client.listTools();
  for (const [i, message] of messages.entries()) {
    await client.callTool({ name: 'echo', arguments: { message } });
    await client.callTool({ name: 'get-sum', arguments: { a: i, b: i * 7 } });
  }
  await client.listPrompts().catch(() => undefined);
  await client.listResources().catch(() => undefined);
  await client.close();

  await page.evaluate(() => (location.hash = '#/traffic'));
  const rows = page.getByRole('table', { name: 'Executions' }).locator('.trow[data-id]');
  // 7 × (echo, get-sum) + tools/list, prompts/list, resources/list: wait until all are in, then settle.
  for (let i = 0; i < 150 && (await rows.count()) < messages.length * 2 + 3; i++) await page.waitForTimeout(100);
  await page.waitForTimeout(500);
  await shot(page, 'traffic-table');

  // Filter suggestions from the recorded data: part of a name is enough (nothing is filtered until one is picked).
  const interceptorFilter = page.getByRole('combobox', { name: 'Interceptor' });
  await interceptorFilter.click();
  await interceptorFilter.pressSequentially('redact');
  await page.getByRole('listbox', { name: 'Interceptor suggestions' }).getByRole('option').first().waitFor();
  await shot(page, 'traffic-suggestions');
  await page.keyboard.press('Escape');
  await interceptorFilter.fill('');
  await interceptorFilter.blur();

  // Detail of a redacted call: the waterfall and the email-redactor diff.
  await rows
    .filter({ has: page.locator('.pill.mutated') })
    .last()
    .click();
  await page
    .getByRole('complementary', { name: 'Execution detail' })
    .getByRole('list', { name: 'Diff of samples/email-redactor' })
    .waitFor()
    .catch(async (err: unknown) => {
      await page.screenshot({ path: '/tmp/traffic/fail.png' });
      throw err;
    });
  await shot(page, 'traffic-detail');

  // A blocked call, edited and replayed without the SSN, compared with its original.
  const detail = page.getByRole('complementary', { name: 'Execution detail' });
  await rows
    .filter({ has: page.locator('.pill.blocked') })
    .last()
    .click();
  await detail.getByRole('note', { name: 'Why it was blocked' }).waitFor();
  await shot(page, 'traffic-blocked');
  // Replayed as it is through the same chain: blocked again. This replay is among the blocked executions
  // that Bulk replay (below) matches, and is excluded from it.
  await detail.getByRole('button', { name: 'Replay', exact: true }).click();
  await detail.getByRole('note', { name: 'Replay of' }).waitFor({ timeout: 20_000 });
  await rows
    .filter({ has: page.locator('.pill.blocked') })
    .last()
    .click();
  await detail.getByRole('note', { name: 'Why it was blocked' }).waitFor();
  await detail.getByRole('button', { name: 'Edit & replay…' }).click();
  const dialog = page.getByRole('dialog', { name: /Edit & replay/ });
  await dialog.getByRole('textbox', { name: 'Request params', exact: true }).click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(JSON.stringify({ name: 'echo', arguments: { message: 'my id is on file' } }, null, 2));
  await dialog.getByRole('button', { name: 'Replay edited request' }).click();
  await detail.getByRole('note', { name: 'Replay of' }).waitFor({ timeout: 20_000 });
  await detail.getByRole('button', { name: 'Compare with the original' }).click();
  await page.getByRole('status', { name: 'Difference' }).waitFor();
  await shot(page, 'traffic-compare');
  await page.getByRole('button', { name: '← Back to traffic' }).click();

  // Bulk replay of the blocked calls after disabling pii-validator.
  const demo = await api<{ config: Record<string, unknown> }>('gateways.get', { id: 'demo' });
  await api('gateways.update', {
    id: 'demo',
    config: { ...demo.config, overrides: { ...(demo.config.overrides as Record<string, unknown>), 'samples/pii-validator': { enabled: false } } },
  });
  await page.getByLabel('Outcome').selectOption('blocked');
  await page.getByRole('button', { name: 'Bulk replay…' }).click();
  const bulk = page.getByRole('dialog', { name: 'Bulk replay' });
  await bulk.getByRole('status', { name: 'Bulk replay plan' }).filter({ hasText: 'excluded' }).waitFor({ timeout: 20_000 });
  await shot(page, 'traffic-bulk-replay-plan');
  await bulk.getByRole('button', { name: 'Start replay' }).click();
  await bulk.getByRole('list', { name: 'Bulk replay summary' }).waitFor({ timeout: 60_000 });
  await shot(page, 'traffic-bulk-replay');
  await bulk.getByRole('button', { name: 'Close' }).last().click();

  await page.evaluate(() => (location.hash = '#/sinks'));
  await page.getByRole('table', { name: 'Sink events' }).locator('.srow[role="row"]:not(.thead)').first().waitFor();
  // The Interceptor filter offers only sink interceptors (here the one sink among the samples): pick it.
  const sinkFilter = page.getByRole('search', { name: 'Filter sink events' }).getByLabel('Interceptor');
  await sinkFilter.locator('option', { hasText: 'request-logger' }).waitFor({ state: 'attached', timeout: 20_000 });
  await sinkFilter.selectOption({ label: 'samples/request-logger' });
  await shot(page, 'traffic-sinks');
} finally {
  await close();
}
