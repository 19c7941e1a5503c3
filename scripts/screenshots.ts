// Takes the README screenshots of the Gateways page (light and dark) with Chromium against web mode:
// real gateways, real traffic through the demo gateway from a real MCP client.
// Run after `npm run build`: node --import tsx scripts/screenshots.ts [--traffic-seconds N]
import { parseArgs } from 'node:util';
import { connectDemoClient, openConsole, screenshotPath } from './screenshot-session';

const { values } = parseArgs({ options: { 'traffic-seconds': { type: 'string', default: '70' } } });
const trafficMs = Number(values['traffic-seconds']) * 1000;

const { web, page, api, close } = await openConsole({ width: 1280, height: 860 });
try {
  // A second gateway, stopped, so the page shows more than one state.
  const examples = await api<{ file: string; config: unknown }[]>('gateways.examples');
  const http = examples.find((e) => e.file === 'http-listener.json');
  if (http) await api('gateways.create', { id: 'team-gateway', config: http.config, localize: true });

  const card = page.getByRole('article', { name: 'Demo gateway' });
  await card.getByRole('list', { name: 'Interceptor servers' }).getByText('Connected').waitFor({ timeout: 30_000 });

  const client = await connectDemoClient(web);
  const messages = ['hello', 'send the report to dana@example.com', 'my ssn is 078-05-1120', 'status?', 'ping ops@example.org'];
  const end = Date.now() + trafficMs;
  for (let i = 0; Date.now() < end; i++) {
    await client.callTool({ name: 'echo', arguments: { message: messages[i % messages.length] } });
    if (i % 7 === 3) await client.callTool({ name: 'get-sum', arguments: { a: i, b: 2 } }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 400));
  }
  await client.close();
  await page.waitForTimeout(1500);

  for (const theme of ['light', 'dark'] as const) {
    await api('settings.update', { theme });
    await page.reload();
    await card.getByLabel('Counters').waitFor();
    await page.waitForTimeout(800);
    const file = screenshotPath(`gateways-${theme}`);
    await page.screenshot({ path: file });
    console.log(`wrote ${file}`);
  }
} finally {
  await close();
}
