// The other side of test/chaos/deep-params.test.ts: a backend's answer nested thousands of levels deep, a
// backend notification that deep, and a client's notification or answer to a backend request (sampling)
// that deep. They used to crash the stdio gateway (JSON.stringify overflowed while writing to the client),
// leave the client with no answer at all when interceptors ran on the method, or lose the record and the
// captured message ('record rejected'). Now: with interceptors the client gets -32603 saying the result
// cannot be inspected (fail-closed); without, the result is relayed unchanged up to MAX_RELAY_DEPTH
// levels; a too-deep client answer becomes an error to the backend; each call is recorded once, cut.
// Real parts: the built CLI gateway over stdio and HTTP, the chaos backend, the sample interceptor server,
// a SQLite history file.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { getExecutionRecord, openStore } from '../../src/main/history/sqlite';
import type { ExecutionRecord } from '../../src/shared/trace/execution';
import { chaosBackend, chaosDir, cliPath, GatewayProcess, HttpSession, type ChaosDir } from './harness';
import { LineClient, writeConfig } from '../gateway/helpers';
import { waitFor } from '../support/wait-for';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const CUT_NOTE = '[nested deeper than this: not recorded]';

function withInterceptors(d: ChaosDir): Record<string, unknown> {
  return {
    backend: chaosBackend(d),
    staticInterceptors: [{ transport: 'stdio', name: 'samples', command: process.execPath, arguments: [cliPath, 'serve-samples'] }],
    overrides: { 'samples/tool-allowlist': { config: { allow: ['*'] } } },
  };
}

/** Levels of nested arrays in `value` (iterative: the values here are thousands of levels deep). */
function arrayDepth(value: unknown): number {
  let depth = 0;
  for (let v = value; Array.isArray(v); v = v[0]) depth++;
  return depth;
}

/** Every execution in the history file, by the `key` argument of its tools/call (others by their method). */
function records(db: string): { byKey: Map<string, ExecutionRecord>; all: ExecutionRecord[] } {
  const store = openStore(db, { create: false });
  try {
    const uuids = store.db.prepare('SELECT uuid FROM executions').pluck().all() as string[];
    const all = uuids.map((uuid) => getExecutionRecord(store.db, uuid)!);
    const byKey = new Map<string, ExecutionRecord>();
    for (const r of all) byKey.set((r.requestReceived as { arguments?: { key?: string } }).arguments?.key ?? r.event, r);
    return { byKey, all };
  } finally {
    store.close();
  }
}

type CapturedMessage = { side: string; direction: string; kind: string; method: string | null; body: string };

function capturedMessages(db: string): CapturedMessage[] {
  const conn = new Database(db, { readonly: true });
  try {
    return conn.prepare('SELECT side, direction, kind, method, body FROM messages WHERE session_key IS NOT NULL ORDER BY id').all() as CapturedMessage[];
  } finally {
    conn.close();
  }
}

const deepText = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('backend results nested too deeply', { timeout: 120_000 }, () => {
  it('over stdio with interceptors: -32603 saying the result cannot be inspected; deep client answers and notifications are refused; all recorded and captured, cut', async () => {
    const d = chaosDir();
    cleanups.push(d.cleanup);
    const client = new LineClient([cliPath, 'gateway', '--config', writeConfig(withInterceptors(d)), '--db', d.db, '--no-watch']);
    cleanups.push(() => client.stop());
    await client.initialize('2025-06-18', { sampling: {} });
    for (const [id, levels] of [
      [1, 5_000],
      [2, 100_000],
      [3, 2_000],
    ] as const) {
      client.send({ id, method: 'tools/call', params: { name: 'deep', arguments: { key: `deep-${levels}`, levels } } });
      const answer = (await client.response(id)) as { error?: { code: number; message: string } };
      expect(answer.error, `depth ${levels}`).toMatchObject({ code: -32603, message: expect.stringContaining('nested too deeply') });
      expect(answer.error!.message).toContain('cannot inspect');
    }
    // A client notification that deep: dropped with a log line; the session goes on.
    client.writeLine(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed","params":{"d":${deepText(5_000)}}}`);
    // The backend asks the client (sampling); the client's answer is too deep: the backend gets an error instead.
    client.send({ id: 4, method: 'tools/call', params: { name: 'ask', arguments: { key: 'ask-deep' } } });
    const ask = await waitForMessage(client, (m) => m.method === 'sampling/createMessage');
    client.writeLine(
      `{"jsonrpc":"2.0","id":${JSON.stringify(ask.id)},"result":{"role":"assistant","model":"m","content":{"type":"text","text":"x"},"d":${deepText(5_000)}}}`,
    );
    const asked = (await client.response(4)) as { result?: { content: { text: string }[] } };
    expect(asked.result?.content[0]?.text).toMatch(/^answered ask-deep: error -32603 .*nested too deeply/);
    client.send({ id: 5, method: 'tools/call', params: { name: 'echo', arguments: { key: 'fine' } } });
    expect(await client.response(5)).toHaveProperty('result');
    await client.stop();
    expect(client.exit?.code).toBe(0);
    expect(client.stderr).toContain('dropped a notifications/roots/list_changed notification from the client');
    expect(client.stderr).not.toContain('record rejected');
    expect(client.stderr).not.toMatch(/Maximum call stack/);

    const { byKey, all } = records(d.db);
    for (const levels of [2_000, 5_000, 100_000]) {
      const r = byKey.get(`deep-${levels}`);
      expect(r, `record of depth ${levels}`).toMatchObject({ outcome: 'error', errorReturned: { code: -32603 } });
      expect(JSON.stringify(r!.responseReceived)).toContain(CUT_NOTE);
    }
    expect(all.filter((r) => r.event === 'tools/call')).toHaveLength(5);
    const sampling = all.filter((r) => r.event === 'sampling/createMessage');
    expect(sampling).toHaveLength(1);
    expect(sampling[0]).toMatchObject({ outcome: 'error', errorReturned: { code: -32603 } });
    expect(JSON.stringify(sampling[0]!.responseReceived)).toContain(CUT_NOTE);
    expect(byKey.get('ask-deep')).toMatchObject({ outcome: 'allow' });
    expect(byKey.get('fine')).toMatchObject({ outcome: 'allow' });

    // The Messages view has each deep message, cut.
    const messages = capturedMessages(d.db);
    const deepIn = messages.filter((m) => m.side === 'backend' && m.direction === 'in' && m.kind === 'response' && m.body.includes('"deep deep-'));
    expect(deepIn).toHaveLength(3);
    for (const m of deepIn) expect(m.body).toContain(CUT_NOTE);
    const note = messages.find((m) => m.side === 'client' && m.method === 'notifications/roots/list_changed');
    expect(note?.body).toContain(CUT_NOTE);
    const answer = messages.find((m) => m.side === 'client' && m.direction === 'in' && m.kind === 'response' && m.body.includes('"model":"m"'));
    expect(answer?.body).toContain(CUT_NOTE);
  });

  it('over stdio without interceptors: relayed unchanged up to 3,000 levels, -32603 beyond; recorded and captured, cut', async () => {
    const d = chaosDir();
    cleanups.push(d.cleanup);
    const client = new LineClient([cliPath, 'gateway', '--config', writeConfig({ backend: chaosBackend(d) }), '--db', d.db, '--no-watch']);
    cleanups.push(() => client.stop());
    await client.initialize();
    client.send({ id: 1, method: 'tools/call', params: { name: 'deep', arguments: { key: 'relayed', levels: 2_000, notify: true } } });
    const relayed = (await client.response(1)) as { result: { d: unknown } };
    expect(arrayDepth(relayed.result.d)).toBe(2_000);
    // The backend's notification that deep came first, unchanged too.
    const note = client.messages.find((m) => m.method === 'notifications/message') as { params: { data: unknown } } | undefined;
    expect(arrayDepth(note?.params.data)).toBe(2_000);
    client.send({ id: 2, method: 'tools/call', params: { name: 'deep', arguments: { key: 'too-deep', levels: 5_000, notify: true } } });
    const refused = (await client.response(2)) as { error?: { code: number; message: string } };
    expect(refused.error).toMatchObject({ code: -32603, message: expect.stringContaining('nested too deeply to relay') });
    client.send({ id: 3, method: 'tools/call', params: { name: 'echo', arguments: { key: 'fine' } } });
    expect(await client.response(3)).toHaveProperty('result');
    await client.stop();
    expect(client.exit?.code).toBe(0);
    expect(client.stderr).toContain('dropped a notifications/message notification from the backend');
    expect(client.stderr).not.toContain('record rejected');

    const { byKey } = records(d.db);
    expect(byKey.get('relayed')).toMatchObject({ outcome: 'allow' });
    expect(JSON.stringify(byKey.get('relayed')!.responseReturned)).toContain(CUT_NOTE);
    expect(byKey.get('too-deep')).toMatchObject({ outcome: 'error', errorReturned: { code: -32603 } });
    expect(JSON.stringify(byKey.get('too-deep')!.responseReceived)).toContain(CUT_NOTE);
    const toClient = capturedMessages(d.db).filter((m) => m.side === 'client' && m.direction === 'out' && m.body.includes('deep relayed'));
    expect(toClient).toHaveLength(1);
    expect(toClient[0]!.body).toContain(CUT_NOTE);
  });

  it('over HTTP: -32603 with interceptors, relayed unchanged without; each call recorded once', async () => {
    for (const intercepted of [true, false]) {
      const d = chaosDir();
      cleanups.push(d.cleanup);
      const gateway = new GatewayProcess(d, intercepted ? withInterceptors(d) : { backend: chaosBackend(d) });
      cleanups.push(() => gateway.stop());
      const session = new HttpSession(await gateway.ready());
      await session.initialize();
      // A bounded wait: a gateway that never answers fails here, not at the test's timeout.
      const tooDeep = await session.tool('deep', { key: 'deep-100000', levels: 100_000 }, AbortSignal.timeout(20_000));
      expect(tooDeep.error).toMatchObject({ code: -32603, message: expect.stringContaining('nested too deeply') });
      const answer = await session.tool('deep', { key: 'deep-2000', levels: 2_000 }, AbortSignal.timeout(20_000));
      if (intercepted) expect(answer.error).toMatchObject({ code: -32603, message: expect.stringContaining('cannot inspect') });
      else expect(arrayDepth((answer.result as { d: unknown }).d)).toBe(2_000);
      expect(await session.tool('echo', { key: 'fine' })).toHaveProperty('result');
      await gateway.stop();
      expect(gateway.stderr).not.toContain('record rejected');
      const { byKey, all } = records(d.db);
      expect(
        all.filter((r) => r.event === 'tools/call'),
        `intercepted: ${intercepted}`,
      ).toHaveLength(3);
      expect(byKey.get('deep-2000')).toMatchObject({ outcome: intercepted ? 'error' : 'allow' });
      expect(byKey.get('deep-100000')).toMatchObject({ outcome: 'error', errorReturned: { code: -32603 } });
    }
  });
});

async function waitForMessage(client: LineClient, match: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  return waitFor(
    () => {
      if (client.exit) throw new Error(`the gateway exited before sending the message; stderr:\n${client.stderr}`);
      return client.messages.find(match);
    },
    20_000,
    `a message from the gateway; stderr so far:\n${client.stderr}`,
  );
}
