// In a real Chromium against web mode: the built-in client's connection belongs to the app, not to the
// Playground screen (it survives going to another screen and back, with the server's sampling request still
// waiting, then answered), and the gateway is one app-wide choice: picked on Chain, it is the one Playground,
// its Client tab, Messages and Paused show; picked on Messages, Chain follows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumAvailable } from './harness';
import type { PageApi } from './support/page-api';
import { openConsole, type ConsoleSession } from './support/console-session';
import { freePort as closedPort } from '../gateway/helpers';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED app-wide client browser tests: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

describe.skipIf(!haveChromium)('the client and the gateway choice belong to the app (Chromium, web mode)', { timeout: 120_000 }, () => {
  let session: ConsoleSession | undefined;
  let page: Page;
  let api: PageApi;
  const go = (route: string) => page.evaluate((r) => (location.hash = r), route);
  const gatewaySelect = () => page.getByRole('main').getByLabel('Gateway', { exact: true });
  const playgroundTab = (name: string) => page.getByRole('tablist', { name: 'Playground' }).getByRole('tab', { name });

  beforeAll(async () => {
    session = await openConsole({ demoTimeoutMs: 90_000, viewport: { width: 1400, height: 900 } });
    ({ page, api } = session);
    // A second gateway after the demo one (its backend is not there: it runs all the same).
    await api('gateways.create', {
      id: 'zeta',
      start: true,
      config: {
        backend: { transport: 'http', name: 'gone', endpoint: `http://127.0.0.1:${await closedPort()}/mcp` },
        listen: { transport: 'http', host: '127.0.0.1', port: 0 },
      },
    });
  }, 180_000);

  afterAll(async () => {
    await session?.close();
  });

  it('keeps the client connected across screens; a sampling request still waits, then is answered', async () => {
    await go('#/playground');
    await playgroundTab('Client').click();
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    const status = page.getByRole('status', { name: 'Client session' });
    await status.waitFor({ timeout: 30_000 });
    const [connected] = await api<{ sessionId: string; label: string }[]>('client.sessions');
    expect(connected!.label).toContain('gateway "');
    await page.getByRole('button', { name: 'Tools: trigger-sampling-request' }).click();
    await page.getByRole('group', { name: 'Arguments of trigger-sampling-request' }).getByLabel('prompt').fill('still there?');
    await page.getByRole('button', { name: 'Call tool' }).click();
    const pending = () => page.getByRole('region', { name: 'Pending requests' }).getByRole('article', { name: 'Request sampling/createMessage' });
    await pending().waitFor({ timeout: 30_000 });

    // Another screen: the connection and the server's request stay in the core.
    await go('#/traffic');
    await page.getByRole('heading', { name: 'Traffic', level: 1 }).waitFor();
    // The rail says a server request waits, from any screen.
    const railBadge = page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /Playground/ })
      .getByLabel('1 server request waiting');
    await railBadge.waitFor();
    expect(await railBadge.textContent()).toBe('1');
    const sessions = await api<{ sessionId: string }[]>('client.sessions');
    expect(sessions.map((s) => s.sessionId)).toEqual([connected!.sessionId]);
    expect(await api<unknown[]>('client.pending', { sessionId: connected!.sessionId })).toHaveLength(1);

    // Back: the same session, its lists and the request waiting for an answer.
    await go('#/playground');
    await playgroundTab('Client').click();
    await status.waitFor();
    await pending().waitFor();
    const form = pending().getByRole('form', { name: 'Sampling reply' });
    await form.getByLabel('Model').fill('came-back');
    await form.getByLabel('Reply text').fill('answered after a visit to Traffic');
    await form.getByRole('button', { name: 'Send reply' }).click();
    await pending().waitFor({ state: 'detached' });
    await railBadge.waitFor({ state: 'detached' });
    expect((await api<{ sessionId: string }[]>('client.sessions')).map((s) => s.sessionId)).toEqual([connected!.sessionId]);
    await page.getByRole('button', { name: 'Disconnect' }).click();
    await status.waitFor({ state: 'detached' });
    expect(await api<unknown[]>('client.sessions')).toEqual([]);
  });

  it('one gateway choice for Chain, Playground and its Client tab, Messages and Paused', async () => {
    await go('#/chain');
    await gatewaySelect().selectOption('zeta');
    await go('#/playground');
    await expect.poll(() => gatewaySelect().inputValue()).toBe('zeta');
    await playgroundTab('Client').click();
    expect(await page.getByLabel('Client gateway').inputValue()).toBe('zeta');
    await go('#/messages');
    await expect.poll(() => gatewaySelect().inputValue()).toBe('zeta');
    await go('#/paused');
    await expect
      .poll(() => page.getByRole('region', { name: 'Breakpoints' }).getByRole('combobox', { name: 'Gateway', exact: true }).inputValue())
      .toBe('zeta');

    // Changed elsewhere (Messages, then the Client tab's picker): every screen follows.
    await go('#/messages');
    await gatewaySelect().selectOption('demo');
    await go('#/chain');
    await expect.poll(() => gatewaySelect().inputValue()).toBe('demo');
    await go('#/playground');
    await playgroundTab('Client').click();
    await page.getByLabel('Client gateway').selectOption('zeta');
    await expect.poll(() => gatewaySelect().inputValue()).toBe('zeta');
    await go('#/paused');
    await expect
      .poll(() => page.getByRole('region', { name: 'Breakpoints' }).getByRole('combobox', { name: 'Gateway', exact: true }).inputValue())
      .toBe('zeta');
  });
});
