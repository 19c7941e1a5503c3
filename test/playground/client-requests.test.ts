// The built-in client's server→client side over real servers (server-everything and a small asking
// server, over stdio), through the validating dispatcher as the renderer calls it: the capabilities it
// declares, sampling and elicitation requests waiting for an answer (checked before they go back), roots
// with list_changed, a request answered with an error when nobody answers in time, and one the server
// withdraws disappearing.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { serverEverythingEntry } from '../../src/main/services/examples';
import type { PendingServerRequest } from '../../src/shared/api/models-client-requests';
import { repoRoot } from '../app/helpers';
import { useClientCore } from './support/client-core';

const { core, call, fails } = useClientCore('ic-client-requests-');
const everything = serverEverythingEntry()!;
const everythingCommand = `${JSON.stringify(process.execPath)} ${JSON.stringify(everything)} stdio`;
const burstCommand = `${JSON.stringify(process.execPath)} ${JSON.stringify(join(repoRoot, 'test/playground/fixtures/burst-server.mjs'))}`;
const askingCommand = `${JSON.stringify(process.execPath)} ${JSON.stringify(join(repoRoot, 'test/playground/fixtures/asking-server.mjs'))}`;

type Text = { result: { content: { text: string }[] } };
const text = (r: Text) => r.result.content.map((c) => c.text).join('\n');

/** Resolves once the session's pending requests satisfy `ok` (checked now, then on each pushed event). */
function pendingUntil(sessionId: string, ok: (pending: PendingServerRequest[]) => boolean): Promise<PendingServerRequest[]> {
  return new Promise((resolve, reject) => {
    let done = false;
    const check = async () => {
      if (done) return;
      const pending = await call<PendingServerRequest[]>('client.pending', { sessionId });
      if (!done && ok(pending)) {
        done = true;
        off();
        resolve(pending);
      }
    };
    const off = core().onEvent((e) => {
      if (e.type === 'client.requests' && e.sessionId === sessionId) check().catch(reject);
    });
    check().catch(reject);
  });
}

describe('the built-in client speaks sampling, elicitation and roots', { timeout: 60_000 }, () => {
  it('declares them, so server-everything lists the tools that need them', async () => {
    const session = await call<{ sessionId: string; clientCapabilities: Record<string, unknown> }>('client.connect', {
      target: { kind: 'stdio', command: everythingCommand },
    });
    expect(session.clientCapabilities).toEqual({ sampling: {}, elicitation: { form: {}, url: {} }, roots: { listChanged: true } });
    const { tools } = await call<{ tools: { name: string }[] }>('client.list', { sessionId: session.sessionId });
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['trigger-sampling-request', 'trigger-elicitation-request', 'trigger-url-elicitation', 'get-roots-list']));
    // Compared with a client that declares nothing, on the same server.
    const bare = new Client({ name: 'bare', version: '1' }, { capabilities: {} });
    await bare.connect(new StdioClientTransport({ command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore' }));
    const bareTools = (await bare.listTools()).tools.map((t) => t.name);
    await bare.close();
    expect(names.length - bareTools.length).toBe(4);
    await call('client.disconnect', { sessionId: session.sessionId });
  });

  it('pings the server and sets its log level ([desktop-client] item 4)', async () => {
    const { sessionId } = await call<{ sessionId: string }>('client.connect', { target: { kind: 'stdio', command: everythingCommand } });
    const pong = await call<{ roundTripMs: number }>('client.ping', { sessionId });
    expect(pong.roundTripMs).toBeGreaterThan(0);
    expect(await call('client.setLogLevel', { sessionId, level: 'debug' })).toEqual({ level: 'debug' });
    const bad = await core().dispatcher.dispatch('client.setLogLevel', { sessionId, level: 'loud' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    await call('client.disconnect', { sessionId });
    expect(await core().dispatcher.dispatch('client.ping', { sessionId })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('keeps what the server sends on its own: the progress of a call; and subscribes to a resource', async () => {
    const { sessionId } = await call<{ sessionId: string }>('client.connect', { target: { kind: 'stdio', command: everythingCommand } });
    await call('client.callTool', { sessionId, name: 'trigger-long-running-operation', arguments: { duration: 1, steps: 3 } });
    const notes = await call<{ seq: number; method: string; params: { progress: number; total: number } }[]>('client.notifications', { sessionId });
    const progress = notes.filter((n) => n.method === 'notifications/progress');
    expect(progress.map((n) => [n.params.progress, n.params.total])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    // Only the newer ones after a seq the pane already has.
    expect(await call('client.notifications', { sessionId, after: progress[2]!.seq })).toEqual([]);
    expect(await call('client.subscribe', { sessionId, uri: 'demo://resource/static/document/architecture.md' })).toEqual({ subscribed: true });
    // completion/complete: a prompt argument, then another narrowed by the first (sent as context).
    const department = await call<{ values: string[] }>('client.complete', {
      sessionId,
      prompt: 'completable-prompt',
      argument: { name: 'department', value: 'E' },
    });
    expect(department.values).toEqual(['Engineering']);
    const lead = await call<{ values: string[] }>('client.complete', {
      sessionId,
      prompt: 'completable-prompt',
      argument: { name: 'name', value: '' },
      context: { department: 'Sales' },
    });
    expect(lead.values).toEqual(['David', 'Eve', 'Frank']);
    await call('client.disconnect', { sessionId });
  });

  it('keeps the progress a server writes in the same chunk as the response of its call', async () => {
    const { sessionId } = await call<{ sessionId: string }>('client.connect', { target: { kind: 'stdio', command: burstCommand } });
    // Several calls: each must keep all three, the last two arriving with the response.
    for (let i = 0; i < 5; i++) {
      const before = await call<{ seq: number }[]>('client.notifications', { sessionId });
      expect(text(await call<Text>('client.callTool', { sessionId, name: 'burst', arguments: {} }))).toBe('done');
      const after = await call<{ method: string; params: { progress: number } }[]>('client.notifications', { sessionId, after: before.at(-1)?.seq ?? 0 });
      expect(after.filter((n) => n.method === 'notifications/progress').map((n) => n.params.progress)).toEqual([1, 2, 3]);
    }
    await call('client.disconnect', { sessionId });
  });

  it('holds a sampling request until the user answers, checks the answer, and returns the server its reply', async () => {
    const { sessionId } = await call<{ sessionId: string }>('client.connect', { target: { kind: 'stdio', command: everythingCommand } });
    const calling = call<Text>('client.callTool', { sessionId, name: 'trigger-sampling-request', arguments: { prompt: 'tell a joke', maxTokens: 50 } });
    const [request] = await pendingUntil(sessionId, (p) => p.length === 1);
    expect(request).toMatchObject({ method: 'sampling/createMessage', params: { maxTokens: 50, systemPrompt: 'You are a helpful test server.' } });
    expect(JSON.stringify(request!.params.messages)).toContain('tell a joke');
    // A reply without a model name is refused here, and the request keeps waiting.
    const bad = await fails('client.answer', { sessionId, requestId: request!.id, answer: { kind: 'sampling', model: ' ', text: 'x' } });
    expect(bad.code).toBe('invalid_input');
    expect(await call<unknown[]>('client.pending', { sessionId })).toHaveLength(1);
    // An elicitation answer does not fit a sampling request.
    expect((await fails('client.answer', { sessionId, requestId: request!.id, answer: { kind: 'elicitation', action: 'decline' } })).message).toContain(
      'sampling reply',
    );
    await call('client.answer', {
      sessionId,
      requestId: request!.id,
      answer: { kind: 'sampling', model: 'human-1', text: 'Why did the proxy cross the road?', stopReason: 'endTurn' },
    });
    const out = text(await calling);
    expect(out).toContain('Why did the proxy cross the road?');
    expect(out).toContain('"model": "human-1"');
    expect(out).toContain('"stopReason": "endTurn"');
    expect(await call<unknown[]>('client.pending', { sessionId })).toEqual([]);
    // Answered once: a second answer finds nothing.
    expect((await fails('client.answer', { sessionId, requestId: request!.id, answer: { kind: 'reject' } })).code).toBe('not_found');
    await call('client.disconnect', { sessionId });
  });

  it("checks an elicitation's content against its requestedSchema; decline reaches the server", async () => {
    const { sessionId } = await call<{ sessionId: string }>('client.connect', { target: { kind: 'stdio', command: everythingCommand } });
    let calling = call<Text>('client.callTool', { sessionId, name: 'trigger-elicitation-request', arguments: {} });
    let [request] = await pendingUntil(sessionId, (p) => p.length === 1);
    expect(request!.method).toBe('elicitation/create');
    const answer = (content: Record<string, unknown>) => ({ sessionId, requestId: request!.id, answer: { kind: 'elicitation', action: 'accept', content } });
    expect((await fails('client.answer', answer({ check: true }))).message).toMatch(/requested schema: name: /);
    expect((await fails('client.answer', answer({ name: 'Zed', integer: 500 }))).message).toMatch(/integer: .*100/);
    expect((await fails('client.answer', answer({ name: 'Zed', untitledSingleSelectEnum: 'Gunther' }))).message).toContain('untitledSingleSelectEnum');
    expect((await fails('client.answer', answer({ name: 'Zed', email: 'not-an-address' }))).message).toContain('email');
    await call(
      'client.answer',
      answer({ name: 'Zed', check: true, integer: 7, titledSingleSelectEnum: 'hero-2', untitledMultipleSelectEnum: ['Piano', 'Drums'] }),
    );
    let out = text(await calling);
    expect(out).toContain('- Name: Zed');
    expect(out).toContain('- Favorite Integer: 7');
    expect(out).toContain('"hero-2"');

    calling = call<Text>('client.callTool', { sessionId, name: 'trigger-elicitation-request', arguments: {} });
    [request] = await pendingUntil(sessionId, (p) => p.length === 1);
    await call('client.answer', { sessionId, requestId: request!.id, answer: { kind: 'elicitation', action: 'decline' } });
    out = text(await calling);
    expect(out).toContain('User declined');

    // URL mode: the request carries the link to open; accepting sends no content.
    calling = call<Text>('client.callTool', { sessionId, name: 'trigger-url-elicitation', arguments: { url: 'https://auth.example/consent' } });
    [request] = await pendingUntil(sessionId, (p) => p.length === 1);
    expect(request!.params).toMatchObject({ mode: 'url', url: 'https://auth.example/consent' });
    await call('client.answer', { sessionId, requestId: request!.id, answer: { kind: 'elicitation', action: 'accept' } });
    expect(text(await calling)).toContain('"action": "accept"');
    await call('client.disconnect', { sessionId });
  });

  it('offers its roots, and the server reads them again after client.setRoots (list_changed)', async () => {
    const session = await call<{ sessionId: string; roots: unknown[] }>('client.connect', {
      target: { kind: 'stdio', command: everythingCommand },
      roots: [{ name: 'first', uri: 'file:///srv/first' }],
    });
    const { sessionId } = session;
    expect(session.roots).toEqual([{ name: 'first', uri: 'file:///srv/first' }]);
    expect(text(await call<Text>('client.callTool', { sessionId, name: 'get-roots-list', arguments: {} }))).toContain('file:///srv/first');
    expect((await fails('client.setRoots', { sessionId, roots: [{ uri: 'https://example.com' }] })).message).toContain('file://');

    type Listed = { sessionId: string; rootsListCount: number; rootsListedAt?: string };
    const listedBefore = (await call<Listed[]>('client.sessions')).find((s) => s.sessionId === sessionId)!.rootsListCount;
    expect(listedBefore).toBeGreaterThan(0);
    const reread = new Promise<void>((resolve) => {
      const off = core().onEvent(async (e) => {
        if (e.type !== 'client.requests' || e.sessionId !== sessionId) return;
        const s = (await call<Listed[]>('client.sessions')).find((x) => x.sessionId === sessionId);
        if (s && s.rootsListCount > listedBefore && s.rootsListedAt) {
          off();
          resolve();
        }
      });
    });
    expect(await call('client.setRoots', { sessionId, roots: [{ name: 'project', uri: 'file:///home/alice/project' }] })).toMatchObject({ notified: true });
    await reread;
    const out = text(await call<Text>('client.callTool', { sessionId, name: 'get-roots-list', arguments: {} }));
    expect(out).toContain('file:///home/alice/project');
    expect(out).not.toContain('file:///srv/first');
    await call('client.disconnect', { sessionId });
  });

  it('answers with an error saying so when nobody answers in time', async () => {
    const { sessionId } = await call<{ sessionId: string }>('client.connect', { target: { kind: 'stdio', command: askingCommand }, answerTimeoutMs: 1000 });
    const out = text(await call<Text>('client.callTool', { sessionId, name: 'ask', arguments: {} }));
    expect(out).toContain('no answer: ');
    expect(out).toContain('No answer within 1 s');
    expect(await call<unknown[]>('client.pending', { sessionId })).toEqual([]);
    await call('client.disconnect', { sessionId });
  });

  it('drops a request the server withdraws (notifications/cancelled), and a rejection reaches the server', async () => {
    const { sessionId } = await call<{ sessionId: string }>('client.connect', { target: { kind: 'stdio', command: askingCommand } });
    const asking = call<Text>('client.callTool', { sessionId, name: 'ask', arguments: {} });
    await pendingUntil(sessionId, (p) => p.length === 1);
    await call('client.callTool', { sessionId, name: 'withdraw', arguments: {} });
    await pendingUntil(sessionId, (p) => p.length === 0);
    expect(text(await asking)).toContain('withdrawn by the server');

    const again = call<Text>('client.callTool', { sessionId, name: 'ask', arguments: {} });
    const [request] = await pendingUntil(sessionId, (p) => p.length === 1);
    await call('client.answer', { sessionId, requestId: request!.id, answer: { kind: 'reject', message: 'not today' } });
    expect(text(await again)).toContain('no answer: MCP error -1: not today');
    await call('client.disconnect', { sessionId });
  });

  it("through a gateway, a call waiting on the user's answer outlives the gateway's backend deadline", async () => {
    const backendTimeoutMs = 800;
    await call('gateways.create', {
      id: 'asking',
      start: true,
      config: {
        backend: { transport: 'stdio', name: 'asking', command: process.execPath, arguments: [join(repoRoot, 'test/playground/fixtures/asking-server.mjs')] },
        listen: { transport: 'http', port: 0, tokens: { 'asking-token': 'alice' } },
        // Only tools/call: the backend's start (initialize) may take longer than this on a loaded machine.
        backendMethodTimeoutsMs: { 'tools/call': backendTimeoutMs },
      },
    });
    const { sessionId } = await call<{ sessionId: string }>('client.connect', { target: { kind: 'gateway', id: 'asking' } });
    const asking = call<Text>('client.callTool', { sessionId, name: 'ask', arguments: {} });
    const [request] = await pendingUntil(sessionId, (p) => p.length === 1);
    // The user takes longer than the backend deadline: the backend is waiting on the client, not stuck.
    await new Promise((r) => setTimeout(r, 3 * backendTimeoutMs));
    await call('client.answer', { sessionId, requestId: request!.id, answer: { kind: 'sampling', model: 'slow-human', text: 'took my time' } });
    expect(text(await asking)).toBe('answered: took my time');
    await call('client.disconnect', { sessionId });
    await call('gateways.stop', { id: 'asking' });
  });

  it('through a gateway, closing the connection rejects a pending sampling request: the server gets the error at once, and history records an error, not allow', async () => {
    await call('gateways.create', {
      id: 'asking-close',
      start: true,
      config: {
        backend: { transport: 'stdio', name: 'asking', command: process.execPath, arguments: [join(repoRoot, 'test/playground/fixtures/asking-server.mjs')] },
        listen: { transport: 'http', port: 0, tokens: { 'asking-close-token': 'alice' } },
      },
    });
    const { sessionId } = await call<{ sessionId: string }>('client.connect', { target: { kind: 'gateway', id: 'asking-close' } });
    const asking = call('client.callTool', { sessionId, name: 'ask', arguments: {} }).catch((err: Error) => err);
    await pendingUntil(sessionId, (p) => p.length === 1);
    await call('client.disconnect', { sessionId });
    // The call ends with the connection, or with the tool's answer when it came back before the close.
    const out = await asking;
    if (!(out instanceof Error)) expect(text(out as Text)).toContain('closed this connection');
    // The gateway relayed the client's answer to its backend and recorded it: within seconds, not after a timeout.
    type Row = { id: string; event: string; outcome: string };
    let sampling: Row | undefined;
    for (let i = 0; i < 50 && !sampling; i++) {
      const page = await call<{ items: Row[] }>('history.query', { filter: { gateway: 'asking-close' } });
      sampling = page.items.find((e) => e.event === 'sampling/createMessage');
      if (!sampling) await new Promise((r) => setTimeout(r, 100));
    }
    expect(sampling?.outcome).toBe('error');
    const detail = await call<Record<string, unknown>>('history.detail', { executionId: sampling!.id });
    expect(JSON.stringify(detail)).toContain("the Interceptor Console's client closed this connection (the user disconnected it)");
    await call('gateways.stop', { id: 'asking-close' });
  });

  it('a closed session takes its pending requests with it', async () => {
    const { sessionId } = await call<{ sessionId: string }>('client.connect', { target: { kind: 'stdio', command: askingCommand } });
    const asking = call('client.callTool', { sessionId, name: 'ask', arguments: {} }).catch((err: Error) => err);
    await pendingUntil(sessionId, (p) => p.length === 1);
    await call('client.disconnect', { sessionId });
    expect(await call<unknown[]>('client.pending', { sessionId })).toEqual([]);
    // Rejected before the close, so the server may answer the call with that error before the connection goes.
    const out = await asking;
    if (!(out instanceof Error))
      expect(text(out as Text)).toContain("no answer: MCP error -32603: Not answered: the Interceptor Console's client closed this connection");
  });
});
