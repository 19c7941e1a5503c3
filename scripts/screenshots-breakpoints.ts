// Takes the README screenshots of breakpoints with Chromium against web mode (the demo gateway), pausing
// real calls of an MCP client and doing for real what each picture shows: an edit before continuing, a
// step before pii-validator, the pause and the edit's diff in Traffic, and the Paused screen in dark.
// Run after `npm run build`: node --import tsx scripts/screenshots-breakpoints.ts
import type { Page } from 'playwright-core';
import { waitForDemoGateway } from '../test/e2e/support/page-api';
import { connectDemoClient, openConsole, shoot } from './screenshot-session';

const { web, page, api, close } = await openConsole({ width: 1440, height: 1000 }, '#/paused');
try {
  await waitForDemoGateway(api);
  const shot = (p: Page, name: string) => shoot(p, name, { settleMs: 500, scrollToTop: true });
  const detail = page.getByRole('region', { name: 'Paused call', exact: true });
  const facts = () =>
    detail
      .locator('.paused-facts')
      .textContent()
      .then((t) => t ?? '');
  const waitFacts = async (words: string) => {
    for (let i = 0; i < 200 && !((await detail.count()) > 0 && (await facts()).includes(words)); i++) await page.waitForTimeout(100);
  };
  const client = await connectDemoClient(web);
  await api('breakpoints.set', { id: 'demo', live: [{ method: 'tools/call', target: 'echo', timeoutMs: 600_000 }] });
  await page.reload();
  await page.getByRole('heading', { name: 'Paused calls', level: 1 }).waitFor();

  // 1. Paused before the chain, the message edited in the editor (not sent yet).
  const first = client.callTool({ name: 'echo', arguments: { message: 'Send the Q3 numbers to carol@example.org' } });
  await waitFacts('request, before the chain');
  const editor = page.getByRole('textbox', { name: 'Payload at this point (params)', exact: true });
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(JSON.stringify({ name: 'echo', arguments: { message: 'Send the Q3 summary to carol@example.org' } }, null, 2));
  await shot(page, 'breakpoints-paused');

  // 2. Edit & continue with stepping: the edit is taken, then a step pauses before each interceptor.
  await detail.getByRole('button', { name: 'Edit & continue' }).click();
  await first;
  const second = client.callTool({ name: 'echo', arguments: { message: 'Invoice for dave@example.net' } });
  await waitFacts('request, before the chain');
  for (let i = 0; i < 10 && !(await facts()).includes('pii-validator'); i++) {
    const before = await facts();
    await detail.getByRole('button', { name: 'Step', exact: true }).click();
    for (let j = 0; j < 100 && (await facts()) === before; j++) await page.waitForTimeout(100);
  }
  await detail
    .getByRole('group', { name: 'Stepped so far' })
    .locator('details')
    .first()
    .evaluate((d) => ((d as HTMLDetailsElement).open = true));
  await shot(page, 'breakpoints-step');
  await detail.getByRole('button', { name: 'Continue', exact: true }).click();
  await second;

  // 3. Traffic: the first call's pause, decided by you, with the edit's diff.
  type Row = { id: string };
  let row: Row | undefined;
  for (let i = 0; i < 100 && !(row = (await api<{ items: Row[] }>('history.query', { filter: { gateway: 'demo', search: 'Q3 summary' } })).items[0]); i++) {
    await page.waitForTimeout(200);
  }
  await page.evaluate((id) => (location.hash = `#/traffic/${id}`), row!.id);
  await page.getByRole('region', { name: 'Breakpoint pauses' }).waitFor();
  await shot(page, 'breakpoints-traffic');

  // 4. The Paused screen in the dark theme, with a call waiting and the breakpoints below.
  await api('settings.update', { theme: 'dark' });
  await page.evaluate(() => (location.hash = '#/paused'));
  const third = client.callTool({ name: 'echo', arguments: { message: 'Reset the password of erin@example.com' } });
  await waitFacts('request, before the chain');
  await shot(page, 'breakpoints-paused-dark');
  await api('breakpoints.set', { id: 'demo', live: [] });
  const [paused] = await api<{ id: string }[]>('breakpoints.paused');
  if (paused) await api('breakpoints.decide', { gateway: 'demo', id: paused.id, decision: { kind: 'continue' } });
  await third;
  await client.close();
} finally {
  await close();
}
