// Takes the README screenshots of the Messages view (light and dark) with Chromium against web mode (the
// demo gateway: server-everything + the sample interceptors), after sending real traffic with an MCP
// client: the client's session picked, its messages on every side, one tools/call request open.
// Run after `npm run build`: node --import tsx scripts/screenshots-messages.ts
import { waitForDemoGateway } from '../test/e2e/support/page-api';
import { connectDemoClient, openConsole, shoot } from './screenshot-session';

const { web, page, api, close } = await openConsole({ width: 1440, height: 900 });
try {
  await waitForDemoGateway(api);
  const client = await connectDemoClient(web);
  await client.listTools();
  await client.callTool({ name: 'echo', arguments: { message: 'Weekly report for bob@example.com' } });
  await client.callTool({ name: 'get-sum', arguments: { a: 19, b: 23 } });
  await client.callTool({ name: 'echo', arguments: { message: 'Status of order 1182' } });
  await client.close();

  await page.evaluate(() => (location.hash = '#/messages/demo'));
  const sessions = page.getByRole('navigation', { name: 'Sessions' });
  await sessions.locator('.msg-session:not([data-session="all"]):not([data-session="-"])').first().click();
  const rows = page.getByRole('table', { name: 'Messages' }).locator('.mrow[data-id]');
  await rows.first().waitFor();
  // The last echo's request from the client, open beside the list.
  await rows
    .filter({ hasText: 'Status of order 1182' })
    .filter({ has: page.locator('.c-hop', { hasText: 'client → gateway' }) })
    .first()
    .click();
  await page.getByRole('region', { name: 'Message detail' }).getByLabel('Message JSON', { exact: true }).waitFor();
  // The open row in the lower half of the list, the newer hops of the same call above it.
  await page.evaluate(() => {
    const open = document.querySelector<HTMLElement>('.mrow.open');
    const list = document.querySelector<HTMLElement>('.mtable .vlist');
    if (open && list) list.scrollTop = Math.max(0, Number(open.dataset.index) * 30 - list.clientHeight + 120);
  });
  for (const theme of ['light', 'dark'] as const) {
    await api('settings.update', { theme });
    await page.waitForTimeout(300);
    await shoot(page, theme === 'light' ? 'messages' : 'messages-dark', { settleMs: 500 });
  }
  await api('settings.update', { theme: 'light' });
} finally {
  await close();
}
