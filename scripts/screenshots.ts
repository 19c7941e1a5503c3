// Takes the README screenshots of the console's own screens (light and dark) with Chromium against web
// mode: the Gateways page (the demo gateway with real traffic from a real MCP client, next to a gateway
// whose backend cannot be reached, so its card shows the failure), the Connect dialog on the stdio snippet,
// and Settings → retention asking before it deletes history.
// Run after `npm run build`: node --import tsx scripts/screenshots.ts [--traffic-seconds N] [--only name,…]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { connectHttpClient, firstToken } from '../test/app/mcp-client';
// A port that was free a moment ago has no listener now: connects to it are refused.
import { freePort as closedPort } from '../test/gateway/helpers';
import { waitForDemoGateway } from '../test/e2e/support/page-api';
import { connectDemoClient, openConsole, shootBothThemes } from './screenshot-session';

const { values } = parseArgs({ options: { 'traffic-seconds': { type: 'string', default: '70' }, only: { type: 'string' } } });
const trafficMs = Number(values['traffic-seconds']) * 1000;

const { web, page, api, close } = await openConsole({ width: 1440, height: 900 });
try {
  const shot = (name: string) => shootBothThemes(page, api, name, { settleMs: 600 });
  await waitForDemoGateway(api);

  // A second gateway, running, whose backend (an HTTP endpoint on a closed port) cannot be reached: the
  // shipped http-listener example with its backend replaced, so it has interceptor servers of its own.
  const examples = await api<{ file: string; config: Record<string, unknown> }[]>('gateways.examples');
  const example = examples.find((e) => e.file === 'http-listener.json');
  if (!example) throw new Error('the shipped example http-listener.json is missing');
  const billing = await api<{ listen: { url: string } }>('gateways.create', {
    id: 'billing',
    start: true,
    localize: true,
    config: {
      ...example.config,
      serverInfo: { name: 'Billing gateway', version: '1.0.0' },
      backend: { transport: 'http', name: 'billing-api', endpoint: `http://127.0.0.1:${await closedPort()}/mcp` },
      listen: { ...(example.config.listen as Record<string, unknown>), port: 0 },
    },
  });
  // Its token as created (the example's placeholder is replaced by a generated one).
  const billingToken = firstToken(JSON.parse(readFileSync(join(web.dataDir, 'gateways', 'billing.json'), 'utf8')) as Record<string, unknown>);
  const billingCard = page.getByRole('article', { name: 'Billing gateway' });
  await billingCard.getByRole('note', { name: 'Backend health' }).waitFor({ timeout: 30_000 });
  // Two clients try it; each initialize fails at the backend (answered, counted and recorded as errors).
  for (let i = 0; i < 2; i++)
    await connectHttpClient(billing.listen.url, billingToken).then(
      (c) => c.close(),
      () => undefined,
    );
  await billingCard.getByRole('alert', { name: 'Backend health' }).filter({ hasText: '(2 failed attempts)' }).waitFor({ timeout: 30_000 });

  // Real traffic through the demo gateway, spread over a minute or more so its chart has bars.
  const client = await connectDemoClient(web);
  const messages = ['hello', 'send the report to dana@example.com', 'my ssn is 078-05-1120', 'status?', 'ping ops@example.org'];
  const end = Date.now() + trafficMs;
  for (let i = 0; Date.now() < end; i++) {
    await client.callTool({ name: 'echo', arguments: { message: messages[i % messages.length] } });
    if (i % 7 === 3) await client.callTool({ name: 'get-sum', arguments: { a: i, b: 2 } }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 400));
  }
  await client.close();

  const demoCard = page.getByRole('article', { name: 'Demo gateway' });
  await demoCard.getByRole('note', { name: 'Backend health' }).filter({ hasText: 'connected since' }).waitFor({ timeout: 30_000 });
  await shot('gateways');

  // Connect a client: the stdio snippet and the config file it runs (the one the Chain screen saves).
  await demoCard.getByRole('button', { name: 'Connect a client' }).click();
  const connect = page.getByRole('dialog', { name: /Connect a client/ });
  // The dialog's body scrolls: bring the stdio part (snippet, the file it runs, the command line) into view.
  await connect.getByTestId('stdio-config-path').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await shot('gateways-connect');
  await connect.getByRole('button', { name: 'Done' }).click();

  // Settings → retention: a smaller limit is not applied at once; the page says how many executions it
  // would delete and asks (cancelled here, so nothing is deleted).
  await page.evaluate(() => (location.hash = '#/settings'));
  const recorded = (await api<{ items: unknown[] }>('history.query', { limit: 500 })).items.length;
  await page.getByLabel('Keep at most (executions)').fill(String(Math.max(1, Math.floor(recorded / 2))));
  await page.getByRole('button', { name: 'Save retention' }).click();
  const ask = page.getByRole('dialog', { name: 'Delete history now?' });
  await ask.waitFor();
  await shot('settings-retention');
  await ask.getByRole('button', { name: 'Cancel' }).click();
} finally {
  await close();
}
