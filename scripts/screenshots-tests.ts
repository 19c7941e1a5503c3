// Takes the README screenshot of the Tests screen (light and dark) with Chromium against web mode: calls
// recorded through the demo gateway by a real MCP client, saved as chain test cases, the chain then edited
// not to redact e-mail addresses, and the run showing the failing case with its payload diff.
// Run after `npm run build`: node --import tsx scripts/screenshots-tests.ts
import { waitForDemoGateway } from '../test/e2e/support/page-api';
import { connectDemoClient, openConsole, shootBothThemes } from './screenshot-session';

const { web, page, api, close } = await openConsole({ width: 1440, height: 900 });
try {
  await waitForDemoGateway(api);
  const client = await connectDemoClient(web);
  await client.callTool({ name: 'echo', arguments: { message: 'Weekly report for bob@example.com' } });
  await client.callTool({ name: 'get-sum', arguments: { a: 19, b: 23 } });
  await client.callTool({ name: 'echo', arguments: { message: 'Status of order 1182' } });
  await client.close();
  type Rows = { items: { id: string }[] };
  let ids: string[] = [];
  for (const end = Date.now() + 20_000; ids.length < 3; await page.waitForTimeout(200)) {
    if (Date.now() > end) throw new Error('the three calls were not recorded within 20 s');
    ids = (await api<Rows>('history.query', { filter: { gateway: 'demo', event: 'tools/call' } })).items.map((r) => r.id);
  }
  await api('tests.save', { id: 'demo', executionIds: ids });
  const doc = await api<{ text: string }>('chain.load', { id: 'demo' });
  const config = JSON.parse(doc.text) as { overrides?: Record<string, unknown> };
  config.overrides = { ...config.overrides, 'samples/email-redactor': { enabled: false } };
  await api('chain.save', { id: 'demo', text: JSON.stringify(config, null, 2) });

  await page.evaluate(() => (location.hash = '#/tests'));
  await page.getByRole('list', { name: 'Test cases' }).locator('li').nth(2).waitFor();
  await page.getByRole('button', { name: 'Run all' }).click();
  await page.getByRole('status', { name: 'Test results' }).filter({ hasText: '1 failed' }).waitFor({ timeout: 20_000 });
  await shootBothThemes(page, api, 'tests-failed', { settleMs: 600 });
} finally {
  await close();
}
console.log(`screenshots written (data folder ${web.dataDir})`);
