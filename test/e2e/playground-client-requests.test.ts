// The Playground's Client answering the server, in a real Chromium against web mode, through the demo
// gateway (server-everything over stdio behind the sample interceptors): it lists every tool the server
// offers a client that declares sampling, elicitation and roots (counted from the server itself); a
// sampling request is announced by a count badge on the Client tab (seen from the other Playground tabs),
// answered in the Pending requests form, and the answer comes back in the tool's result; an elicitation form generated from the request's schema is checked by the core, then accepted;
// roots set in the UI reach the server through notifications/roots/list_changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { serverEverythingEntry } from '../../src/main/services/examples';
import { chromiumAvailable } from './harness';
import type { PageApi } from './support/page-api';
import { openConsole, type ConsoleSession } from './support/console-session';
import { connectClientTab } from './support/client-tab';

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn('SKIPPED client-requests browser tests: /usr/bin/chromium is missing (apt-get install -y chromium; .ci/run does this).');

/** The tools server-everything lists to a client declaring `capabilities`, asked directly over stdio. */
async function toolsOffered(capabilities: Record<string, unknown>): Promise<string[]> {
  const client = new Client({ name: 'count', version: '1' }, { capabilities });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [serverEverythingEntry()!, 'stdio'], stderr: 'ignore' }));
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

describe.skipIf(!haveChromium)('Playground Client answers sampling, elicitation and roots (Chromium, web mode)', { timeout: 90_000 }, () => {
  let session: ConsoleSession | undefined;
  let page: Page;
  let api: PageApi;
  const call = () => page.getByRole('region', { name: 'Call' });
  const pending = () => page.getByRole('region', { name: 'Pending requests' });
  const playgroundTab = (name: string) => page.getByRole('tablist', { name: 'Playground' }).getByRole('tab', { name });

  async function callTool(name: string) {
    await page.getByRole('button', { name: `Tools: ${name}` }).click();
    await page.getByRole('button', { name: 'Call tool' }).click();
  }

  beforeAll(async () => {
    session = await openConsole({ demoTimeoutMs: 90_000, viewport: { width: 1400, height: 900 } });
    ({ page, api } = session);
    await connectClientTab(page, { kind: 'gateway' });
  }, 180_000);

  afterAll(async () => {
    await session?.close();
  });

  it('lists every tool server-everything offers a client with these capabilities', async () => {
    const [session] = await api<{ clientCapabilities: Record<string, unknown> }[]>('client.sessions');
    expect(Object.keys(session!.clientCapabilities).sort()).toEqual(['elicitation', 'roots', 'sampling']);
    const offered = await toolsOffered(session!.clientCapabilities);
    const bare = await toolsOffered({});
    expect(offered.length).toBeGreaterThan(bare.length);
    const tab = page.getByRole('tablist', { name: 'Catalog sections' }).getByRole('tab', { name: /^Tools/ });
    expect(await tab.locator('.count').textContent()).toBe(String(offered.length));
    const list = page.getByRole('list', { name: 'Tools' });
    for (const name of offered) await list.getByRole('button', { name: `Tools: ${name}`, exact: true }).waitFor();
  });

  it('answers a sampling request in the UI; the tool call waits for it, then shows the answer', async () => {
    const marker = `sampled-${Date.now()}`;
    await page.getByRole('button', { name: 'Tools: trigger-sampling-request' }).click();
    await page.getByRole('group', { name: 'Arguments of trigger-sampling-request' }).getByLabel('prompt').fill('write a haiku about proxies');
    await page.getByRole('button', { name: 'Call tool' }).click();
    const request = pending().getByRole('article', { name: 'Request sampling/createMessage' });
    await request.waitFor({ timeout: 30_000 });
    expect(await request.getByRole('list', { name: 'Messages to sample from' }).textContent()).toContain('write a haiku about proxies');
    // The call stays pending until the answer.
    expect(await page.getByRole('button', { name: 'Calling…' }).isDisabled()).toBe(true);
    // From another tab, the Client tab says a request waits: a count badge, and its title in words.
    await playgroundTab('Invoke').click();
    const clientTab = playgroundTab('Client');
    const badge = clientTab.locator('.tab-badge');
    await badge.waitFor();
    expect(await badge.textContent()).toBe('1');
    expect(await clientTab.getAttribute('title')).toBe('1 server request waiting for your answer in Pending requests');
    expect(await badge.getAttribute('aria-label')).toBe('1 waiting');
    await clientTab.click();
    const form = request.getByRole('form', { name: 'Sampling reply' });
    await form.getByLabel('Model').fill('human-in-the-loop');
    await form.getByLabel('Reply text').fill(marker);
    await form.getByLabel('Stop reason').selectOption('maxTokens');
    await form.getByRole('button', { name: 'Send reply' }).click();
    await request.waitFor({ state: 'detached' });
    // Answered: the badge goes, live.
    await badge.waitFor({ state: 'detached' });
    expect(await clientTab.getAttribute('title')).toBeNull();
    const text = call().getByLabel('Text content').first();
    await text.waitFor();
    expect(await text.textContent()).toContain(marker);
    expect(await text.textContent()).toContain('"model": "human-in-the-loop"');
    expect(await text.textContent()).toContain('"stopReason": "maxTokens"');
    expect(await pending().getByRole('article').count()).toBe(0);
  });

  it('fills an elicitation form generated from its schema; the core refuses what the schema refuses', async () => {
    await callTool('trigger-elicitation-request');
    const request = pending().getByRole('article', { name: 'Request elicitation/create' });
    await request.waitFor({ timeout: 30_000 });
    const form = request.getByRole('form', { name: 'Elicitation form' });
    // Required fields are marked; fields start from their defaults.
    expect(await form.getByRole('group', { name: 'untitledMultipleSelectEnum' }).getByLabel('Guitar').isChecked()).toBe(true);
    expect(await form.getByLabel('integer', { exact: true }).inputValue()).toBe('42');
    expect(await form.locator('.required').count()).toBe(1);
    // Without the required name the core says so, and the request keeps waiting.
    await form.getByRole('button', { name: 'Accept' }).click();
    await request.getByRole('alert').getByText(/name:/).waitFor();
    await form.getByLabel('name', { exact: true }).fill('Ada Lovelace');
    await form.getByLabel('integer', { exact: true }).fill('7');
    await form.getByLabel('check', { exact: true }).check();
    await form.getByLabel('titledSingleSelectEnum', { exact: true }).selectOption('hero-3');
    await form.getByRole('button', { name: 'Accept' }).click();
    await request.waitFor({ state: 'detached' });
    await expect.poll(async () => (await call().getByLabel('Text content').allTextContents()).join('\n')).toContain('- Name: Ada Lovelace');
    const out = (await call().getByLabel('Text content').allTextContents()).join('\n');
    expect(out).toContain('- Favorite Integer: 7');
    expect(out).toContain('- Agreed to terms: true');
    expect(out).toContain('"titledSingleSelectEnum": "hero-3"');
  });

  it('sets roots in the UI; the server reads them again and the roots tool shows them', async () => {
    await page.locator('summary', { hasText: /^Roots/ }).click();
    const roots = page.getByRole('group', { name: 'Roots' });
    const status = roots.getByLabel('Roots status');
    const readsBefore = Number(/(\d+) times?/.exec((await status.textContent()) ?? '')?.[1] ?? 0);
    await roots.getByRole('button', { name: 'Add root' }).click();
    await roots.getByLabel('Root 1 name').fill('workspace');
    await roots.getByLabel('Root 1 URI').fill('file:///home/ada/workspace');
    await roots.getByRole('button', { name: 'Add root' }).click();
    await roots.getByLabel('Root 2 URI').fill('file:///srv/shared-notes');
    await roots.getByRole('button', { name: 'Apply roots' }).click();
    // notifications/roots/list_changed makes the server ask again: the count goes up.
    await expect.poll(async () => Number(/(\d+) times?/.exec((await status.textContent()) ?? '')?.[1] ?? 0), { timeout: 30_000 }).toBeGreaterThan(readsBefore);
    await callTool('get-roots-list');
    await expect.poll(async () => (await call().getByLabel('Text content').allTextContents()).join('\n')).toContain('file:///home/ada/workspace');
    const out = (await call().getByLabel('Text content').allTextContents()).join('\n');
    expect(out).toContain('Current MCP Roots (2 total)');
    expect(out).toContain('1. workspace');
    expect(out).toContain('file:///srv/shared-notes');
  });
});
