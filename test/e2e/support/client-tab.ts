// The Playground's Client tab in browser tests: going there from any screen, choosing what to connect to,
// filling it in, pressing Connect, and waiting for the session the status line shows.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** What the Client tab connects to: the gateway it has selected (the demo gateway at first), a command over stdio, or a URL. */
export type ClientTarget = { kind: 'gateway' } | { kind: 'stdio'; command: string } | { kind: 'http'; url: string };

const KIND_LABEL = { stdio: 'A command (stdio)', http: 'A URL (Streamable HTTP)' } as const;

/** Goes to the Playground and opens its Client tab. */
export async function openClientTab(page: Page): Promise<void> {
  await page.evaluate(() => (location.hash = '#/playground'));
  await page.getByRole('heading', { name: 'Playground', level: 1 }).waitFor({ timeout: 60_000 });
  await page.getByRole('tablist', { name: 'Playground' }).getByRole('tab', { name: 'Client' }).click();
}

/** On the Client tab: chooses the target, fills it in and presses Connect (Reconnect when a session is open). */
export async function pressConnect(page: Page, target: ClientTarget): Promise<void> {
  if (target.kind !== 'gateway') await page.getByRole('radiogroup', { name: 'Connect to' }).getByText(KIND_LABEL[target.kind]).click();
  if (target.kind === 'stdio') await page.getByLabel('Server command').fill(target.command);
  if (target.kind === 'http') await page.getByLabel('Server URL').fill(target.url);
  await page.getByRole('button', { name: /^(Connect|Reconnect)$/ }).click();
}

/**
 * Opens the Client tab, connects to `target`, and returns the session's status line once it shows (and,
 * when `server` is given, once it names that server: a Reconnect replaces a session already shown).
 */
export async function connectClientTab(page: Page, target: ClientTarget, server?: string): Promise<Locator> {
  await openClientTab(page);
  await pressConnect(page, target);
  const status = page.getByRole('status', { name: 'Client session' });
  if (server === undefined) await status.waitFor({ timeout: 30_000 });
  else await expect.poll(() => status.textContent(), { timeout: 30_000 }).toContain(server);
  return status;
}
