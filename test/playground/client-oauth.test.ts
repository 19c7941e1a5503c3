// OAuth of the built-in client against a real OAuth-protected MCP server (fixtures/oauth-protected-server.mjs:
// the v1 SDK's auth router and bearer middleware, an /authorize that approves at once), through the
// validating dispatcher as the renderer calls it. The connect meets 401, the console lists the
// authorization URL; the test plays the browser (fetch the URL, follow its redirect to the console's
// loopback callback), and the connect completes with a token the server accepts. A callback with another
// state, nobody coming back in time, a cancel, and a server without OAuth metadata or with invalid metadata
// each fail with a message saying why.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { ClientAuthorization } from '../../src/shared/api/models-client-oauth';
import { repoRoot } from '../app/helpers';
import { useClientCore } from './support/client-core';

const servers: ChildProcess[] = [];
// Registered before the core's hooks, so it runs after the core has shut down (after-hooks run in reverse).
afterAll(() => {
  for (const s of servers) s.kill();
});
const { core, call } = useClientCore('ic-client-oauth-');

/** Starts the fixture; resolves with its MCP endpoint once it listens. */
async function startServer(...args: string[]): Promise<string> {
  const child = spawn(process.execPath, [join(repoRoot, 'test/playground/fixtures/oauth-protected-server.mjs'), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  servers.push(child);
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  return line.replace(/^listening /, '');
}

/** The authorization the console lists once the connect is waiting for the user (checked now, then on each pushed event). */
function waitingAuthorization(): Promise<ClientAuthorization> {
  return new Promise((resolve, reject) => {
    const check = async () => {
      const [first] = await call<ClientAuthorization[]>('client.authorizations');
      if (first) {
        off();
        resolve(first);
      }
    };
    const off = core().onEvent((e) => {
      if (e.type === 'client.authorizations') check().catch(reject);
    });
    check().catch(reject);
  });
}

/** What a browser does with the authorization URL: the server approves and redirects to the console's callback. */
async function approve(authorizationUrl: string): Promise<URL> {
  const r = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(r.status).toBe(302);
  return new URL(r.headers.get('location')!);
}

/** Outcome of a connect the test awaits later, so a rejection is never left unhandled meanwhile. */
function settle<T>(p: Promise<T>): Promise<{ value?: T; error?: Error }> {
  return p.then(
    (value) => ({ value }),
    (error: Error) => ({ error }),
  );
}

describe('the built-in client authorizes with OAuth an HTTP server that answers 401', { timeout: 60_000 }, () => {
  it('shows the authorization URL, takes the callback on 127.0.0.1, exchanges the code and connects', async () => {
    const url = await startServer();
    const connecting = settle(call<{ sessionId: string; serverInfo: { name: string } }>('client.connect', { target: { kind: 'http', url } }));
    const auth = await waitingAuthorization();
    const authorizationUrl = new URL(auth.authorizationUrl);
    expect(authorizationUrl.origin).toBe(new URL(url).origin);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    const redirect = new URL(authorizationUrl.searchParams.get('redirect_uri')!);
    expect(redirect.hostname).toBe('127.0.0.1');
    expect(redirect.pathname).toBe('/oauth/callback');
    // The callback listener answers nothing but its one path, and that does not end the wait.
    expect((await fetch(new URL('/favicon.ico', redirect))).status).toBe(404);

    const callback = await approve(auth.authorizationUrl);
    expect(callback.origin).toBe(redirect.origin);
    const page = await fetch(callback);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Authorized');

    const { value: session, error } = await connecting;
    expect(error).toBeUndefined();
    expect(session!.serverInfo.name).toBe('oauth-protected-server');
    const { tools } = await call<{ tools: { name: string }[] }>('client.list', { sessionId: session!.sessionId });
    expect(tools.map((t) => t.name)).toEqual(['whoami', 'revoke-tokens']);
    const who = await call<{ result: { content: { text: string }[] } }>('client.callTool', { sessionId: session!.sessionId, name: 'whoami' });
    // Issued to the client the console registered (dynamic registration), not to nobody.
    expect(who.result.content[0]!.text).toMatch(/^client [0-9a-f-]{36}$/);

    // One-shot: the callback listener is gone, and nothing waits any more.
    await expect(fetch(callback)).rejects.toThrow();
    expect(await call('client.authorizations')).toEqual([]);

    // A token the server stops accepting: the call says to connect again (no callback is listening any more).
    await call('client.callTool', { sessionId: session!.sessionId, name: 'revoke-tokens' });
    const refused = await core().dispatcher.dispatch('client.callTool', { sessionId: session!.sessionId, name: 'whoami' });
    expect(refused).toMatchObject({ ok: false, error: { message: expect.stringMatching(/no longer accepts this session's OAuth token.*connect again/) } });
    await call('client.disconnect', { sessionId: session!.sessionId });
  });

  it('refuses a callback whose state is not the one it sent, with a clear error, and exchanges nothing', async () => {
    const url = await startServer();
    const connecting = settle(call('client.connect', { target: { kind: 'http', url } }));
    const callback = await approve((await waitingAuthorization()).authorizationUrl);
    callback.searchParams.set('state', 'forged-by-someone-else');
    const page = await fetch(callback);
    expect(page.status).toBe(400);
    const { error } = await connecting;
    expect(error?.message).toMatch(/failed: The authorization callback carried a different state than the console sent.*No code was exchanged; connect again/);
    await expect(fetch(callback)).rejects.toThrow();
    expect(await call('client.authorizations')).toEqual([]);
    expect(await call('client.sessions')).toEqual([]);
  });

  it('stops waiting when nobody authorizes in time and says what to do', async () => {
    const url = await startServer();
    const connecting = settle(call('client.connect', { target: { kind: 'http', url }, authorizationTimeoutMs: 1_000 }));
    const { authorizationUrl } = await waitingAuthorization();
    const redirect = new URL(new URL(authorizationUrl).searchParams.get('redirect_uri')!);
    const { error } = await connecting;
    expect(error?.message).toMatch(/Nobody finished authorizing .* within 1 s.*Connect again, open the link under "Authorize in your browser"/);
    await expect(fetch(redirect)).rejects.toThrow();
    expect(await call('client.authorizations')).toEqual([]);
  });

  it('stops waiting when the user cancels in the console', async () => {
    const url = await startServer();
    const connecting = settle(call('client.connect', { target: { kind: 'http', url } }));
    const { authorizationId } = await waitingAuthorization();
    expect(await call('client.cancelAuthorization', { authorizationId })).toEqual({ cancelled: true });
    const { error } = await connecting;
    expect(error?.message).toMatch(/was cancelled in the console; connect again to retry/);
    expect(await call('client.cancelAuthorization', { authorizationId })).toEqual({ cancelled: false });
  });

  it('says which OAuth metadata a server that answers 401 does not publish', async () => {
    const url = await startServer('--no-metadata');
    const { error } = await settle(call('client.connect', { target: { kind: 'http', url } }));
    expect(error?.message).toMatch(
      /asks for authorization \(HTTP 401\) but publishes no OAuth metadata.*no authorization-server metadata at .*nor protected-resource metadata/,
    );
    expect(await call('client.authorizations')).toEqual([]);
  });

  it('says so when the authorization-server metadata is not valid', async () => {
    const url = await startServer('--invalid-metadata');
    const { error } = await settle(call('client.connect', { target: { kind: 'http', url } }));
    expect(error?.message).toMatch(
      /asks for authorization \(HTTP 401\), but its OAuth metadata \(protected-resource or authorization-server\) is not valid: authorization_endpoint: .*; token_endpoint: /,
    );
    expect(await call('client.authorizations')).toEqual([]);
  });
});
