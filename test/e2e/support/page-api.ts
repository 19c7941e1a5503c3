// Calls the app API from inside a page, with the token the page took from its URL (as the UI does):
// for e2e tests that set up state (update a gateway, read history) next to what they click.
import type { Page } from 'playwright-core';
import { waitFor } from '../../support/wait-for';

export type PageApi = <T = Record<string, unknown>>(procedure: string, input?: unknown) => Promise<T>;

export function pageApi(page: Page): PageApi {
  return async <T>(procedure: string, input: unknown = {}) => {
    const r = await page.evaluate(
      async ({ procedure, input }) => {
        const token = sessionStorage.getItem('ic-token');
        if (!token) throw new Error('this page holds no web-mode token: open web.openUrl first');
        const res = await fetch(`/api/call/${procedure}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: JSON.stringify(input) });
        return (await res.json()) as { ok: boolean; value?: unknown; error?: { message: string } };
      },
      { procedure, input },
    );
    if (!r.ok) throw new Error(`${procedure}: ${r.error?.message}`);
    return r.value as T;
  };
}

/**
 * Waits until the demo gateway runs and its interceptor servers are connected (first start creates it
 * and spawns them; traffic sent before that could meet a fail-closed server still starting).
 */
export async function waitForDemoGateway(api: PageApi, timeoutMs = 60_000): Promise<void> {
  type Info = { status: string; interceptorServers: { status: string }[] };
  // At least one server: the demo gateway always has the samples, and an empty list is one not filled in yet.
  const ready = (g: Info) => g.status === 'running' && g.interceptorServers.length > 0 && g.interceptorServers.every((s) => s.status === 'connected');
  await waitFor(async () => ready(await api<Info>('gateways.get', { id: 'demo' })), timeoutMs, 'the demo gateway and its interceptor servers to be up', 250);
}
