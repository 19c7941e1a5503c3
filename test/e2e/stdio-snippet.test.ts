// The "Connect a client" stdio snippet in a real Chromium against web mode: the command line the dialog
// shows is launched as it is by a real MCP client (SDK v2 over stdio), and what it sends is filed under
// the gateway's id ("demo"), not its serverInfo name ("Demo gateway"), everywhere: the Traffic rows and
// Gateway filter, the card's counters and replay. The snippet runs the very file the Chain screen saves
// (`--listen stdio`), the dialog names it, and a save reaches a connected stdio client.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { chromiumAvailable, type WebModeRun } from './harness';
import type { PageApi } from './support/page-api';
import { openConsole, type ConsoleSession } from './support/console-session';
import { splitCommandLine } from '../../src/shared/shell/shell-words';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED stdio snippet browser tests: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

describe.skipIf(!haveChromium)('The stdio "Connect a client" snippet in Chromium (web mode)', () => {
  let session: ConsoleSession | undefined;
  let web: WebModeRun;
  let page: Page;
  let api: PageApi;

  const card = () => page.getByRole('article', { name: 'Demo gateway' });
  const rows = () => page.getByRole('table', { name: 'Executions' }).locator('.trow[data-id]');

  /** Opens the demo card's Connect dialog and returns the stdio command line it shows. */
  async function snippetCommand(): Promise<string> {
    await page.evaluate(() => (location.hash = '#/gateways'));
    await card().getByRole('button', { name: 'Connect a client' }).click();
    const dialog = page.getByRole('dialog', { name: /Connect a client/ });
    const command = dialog.getByLabel('Command line', { exact: true });
    await command.waitFor();
    const text = (await command.textContent())!;
    await dialog.getByRole('button', { name: 'Done' }).click();
    return text;
  }

  /** Launches the command line exactly as a client would (no shell), runs `calls`, and closes. */
  async function withStdioClient(commandLine: string, calls: (client: Client) => Promise<void>): Promise<void> {
    const [command, ...args] = splitCommandLine(commandLine);
    const client = new Client({ name: 'ic-stdio-snippet-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: command!, args, stderr: 'ignore' }));
    try {
      await calls(client);
    } finally {
      await client.close();
    }
  }

  beforeAll(async () => {
    session = await openConsole();
    ({ web, page, api } = session);
  }, 120_000);

  afterAll(async () => {
    await session?.close();
  });

  it('files calls from the stdio snippet under the gateway id: Traffic, its Gateway filter, the card counters, replay', { timeout: 180_000 }, async () => {
    const calls = card().getByLabel('Counters').getByLabel('Calls');
    await card().getByRole('status').filter({ hasText: 'Running' }).first().waitFor({ timeout: 60_000 });
    await expect.poll(() => calls.textContent(), { timeout: 30_000 }).toBe('0');

    await withStdioClient(await snippetCommand(), async (client) => {
      const ok = await client.callTool({ name: 'echo', arguments: { message: 'via stdio' } });
      expect(JSON.stringify(ok)).toContain('via stdio');
    });

    // The card counts it (its counters are the history of gateway "demo").
    await expect.poll(async () => Number(await calls.textContent()), { timeout: 60_000 }).toBe(1);

    await page.evaluate(() => (location.hash = '#/traffic'));
    await expect.poll(() => rows().count(), { timeout: 30_000 }).toBe(1);
    expect(await rows().first().locator('.c-gateway').textContent()).toBe('demo');
    const gatewayOptions = await page.getByRole('combobox', { name: 'Gateway' }).locator('option').allTextContents();
    expect(gatewayOptions.filter((o) => o !== '' && !/^any/i.test(o))).toEqual(['demo']);

    // Replay finds the gateway (it runs here, under that id) instead of "not configured here any more".
    await rows().first().click();
    const detail = page.getByRole('complementary', { name: 'Execution detail' });
    await detail.getByRole('button', { name: 'Replay', exact: true }).click();
    await detail.getByRole('note', { name: 'Replay of' }).waitFor({ timeout: 30_000 });
    await expect.poll(() => rows().count(), { timeout: 15_000 }).toBe(2);
    expect(await page.getByText(/not configured here any more/).count()).toBe(0);
  });

  it('runs the config file the Chain screen saves, says which in the dialog, and follows a save while connected', { timeout: 180_000 }, async () => {
    const configFile = join(web.dataDir, 'gateways', 'demo.json');
    await page.evaluate(() => (location.hash = '#/gateways'));
    await card().getByRole('button', { name: 'Connect a client' }).click();
    const dialog = page.getByRole('dialog', { name: /Connect a client/ });
    await dialog.getByTestId('stdio-config-path').waitFor();
    expect(await dialog.getByTestId('stdio-config-path').textContent()).toContain(configFile);
    await dialog.getByRole('button', { name: 'Done' }).click();
    const commandLine = await snippetCommand();
    expect(splitCommandLine(commandLine)).toEqual(expect.arrayContaining(['--config', configFile, '--listen', 'stdio']));

    const blocked = async (client: Client) => (await client.callTool({ name: 'echo', arguments: { message: 'ssn 123-45-6789' } })).isError === true;
    await withStdioClient(commandLine, async (client) => {
      expect(await blocked(client)).toBe(true);
      // Saved in the Chain screen (as its Save button does): pii-validator off. The connected client's gateway follows.
      const loaded = await api<{ text: string }>('chain.load', { id: 'demo' });
      const config = JSON.parse(loaded.text) as { overrides: Record<string, unknown> };
      config.overrides['samples/pii-validator'] = { enabled: false };
      await api('chain.save', { id: 'demo', text: JSON.stringify(config, null, 2) });
      await expect.poll(() => blocked(client), { timeout: 30_000, interval: 500 }).toBe(false);
    });
    // A client launched after the save runs the saved chain from its first call.
    await withStdioClient(commandLine, async (client) => expect(await blocked(client)).toBe(false));
  });
});
