// Takes the README screenshots of the Gateways page (light and dark) with Chromium against web mode:
// real gateways, real traffic through the demo gateway from a real MCP client.
// Run after `npm run build`: node --import tsx scripts/screenshots.ts [--traffic-seconds N]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium, root, startWebMode } from '../test/e2e/harness';
import { connectHttpClient, firstToken } from '../test/app/mcp-client';

const { values } = parseArgs({ options: { 'traffic-seconds': { type: 'string', default: '70' } } });
const trafficMs = Number(values['traffic-seconds']) * 1000;

const web = await startWebMode();
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 }, deviceScaleFactor: 1 });
  await page.goto(web.openUrl);
  const call = (procedure: string, input: unknown) =>
    page.evaluate(
      async ({ procedure, input }) => {
        const token = document.querySelector<HTMLMetaElement>('meta[name="ic-token"]')!.content;
        const res = await fetch(`/api/call/${procedure}`, { method: 'POST', headers: { 'x-ic-token': token }, body: JSON.stringify(input) });
        return (await res.json()) as unknown;
      },
      { procedure, input },
    );
  // A second gateway, stopped, so the page shows more than one state.
  const examples = (await call('gateways.examples', {})) as { value: { file: string; config: unknown }[] };
  const http = examples.value.find((e) => e.file === 'http-listener.json');
  if (http) await call('gateways.create', { id: 'team-gateway', config: http.config, localize: true });

  const card = page.getByRole('article', { name: 'Demo gateway' });
  await card.getByRole('list', { name: 'Interceptor servers' }).getByText('Connected').waitFor({ timeout: 30_000 });

  const config = JSON.parse(readFileSync(join(web.dataDir, 'gateways', 'demo.json'), 'utf8')) as Record<string, unknown>;
  const client = await connectHttpClient(`http://127.0.0.1:${(config.listen as { port: number }).port}/mcp`, firstToken(config));
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
    await call('settings.update', { theme });
    await page.reload();
    await card.getByLabel('Counters').waitFor();
    await page.waitForTimeout(800);
    const file = join(root, 'docs', 'screenshots', `gateways-${theme}.png`);
    await page.screenshot({ path: file });
    console.log(`wrote ${file}`);
  }
} finally {
  await browser.close();
  await web.stop();
}
