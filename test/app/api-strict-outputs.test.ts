// The strict contract schemas of the richest outputs (an execution's detail, a replay, a dry run's trace,
// sink events) accept what a real gateway records: server-everything over stdio behind the sample
// interceptors (a stdio server), recording into a real SQLite file and into a real PostgreSQL (a throwaway
// cluster: that engine hands back the stored JSON as it is), driven by a real MCP client. Every
// kind of execution the screens show goes through the validating dispatcher (which answers invalid_output
// when a handler's value breaks its schema): allowed, blocked, mutated, an error answer, a call without
// params, and a call paused at two breakpoints (one edited, one continued).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import type { ApiEvent } from '../../src/shared/api/events';
import type { ExecutionDetail, TrafficRow } from '../../src/shared/api/models-execution';
import type { SinkEvent } from '../../src/shared/api/models-traffic';
import type { ChainTrace } from '../../src/shared/trace/types';
import { gatewayRuntimeFactory } from '../../src/main/services/gateway-adapter';
import { InterceptorServerPool } from '../../src/main/services/pool/pool';
import { PoolChainService } from '../../src/main/services/pool/chain-service';
import { silentLogger } from '../../src/main/services/environment';
import { SqliteHistory } from '../../src/main/history/sqlite';
import { PgHistory } from '../../src/main/history/postgres';
import { postgresUnavailable, startPostgres, type PostgresCluster } from '../fixtures/postgres-cluster';
import type { AppCore } from '../../src/main/services/app-core';
import { dispatcherCalls } from './dispatch';
import { tempDir, testCore } from './helpers';
import { connectHttpClient } from './mcp-client';
import { cliPath, everythingBackend, waitFor } from '../gateway/helpers';

const noPostgres = postgresUnavailable();
if (noPostgres) console.warn(`SKIPPED the PostgreSQL half of the strict-output tests: ${noPostgres}`);
const engines: ('sqlite' | 'postgres')[] = noPostgres ? ['sqlite'] : ['sqlite', 'postgres'];

describe.each(engines)('strict API outputs over a real gateway and store (%s)', { timeout: 120_000 }, (engine) => {
  const t = tempDir('ic-strict-');
  let core: AppCore;
  let client: Client;
  let history: SqliteHistory | PgHistory;
  let cluster: PostgresCluster | undefined;
  const events: ApiEvent[] = [];
  const { call } = dispatcherCalls(() => core);

  const rows = async (): Promise<TrafficRow[]> => (await call<{ items: TrafficRow[] }>('history.query', { limit: 100 })).items;
  const detail = (executionId: string) => call<ExecutionDetail>('history.detail', { executionId });

  /** Answers the next pause that opens with `decision` (as the Breakpoints screen would). */
  async function decideNext(seen: Set<string>, decision: Record<string, unknown>): Promise<void> {
    let id: string | undefined;
    await waitFor(() => events.some((e) => e.type === 'pauses.changed' && e.opened !== undefined && !seen.has(e.opened.id)), 20_000, 'a pause');
    for (const e of events) if (e.type === 'pauses.changed' && e.opened && !seen.has(e.opened.id)) id ??= e.opened.id;
    seen.add(id!);
    await call('breakpoints.decide', { gateway: 'st', id, decision });
  }

  beforeAll(async () => {
    if (engine === 'postgres') cluster = await startPostgres();
    history = cluster ? await PgHistory.openRecording(cluster.url) : SqliteHistory.open(join(t.dir, 'history.db'));
    // The interceptor-server pool and chain engine too: chain.dryRun runs on them.
    const pool = new InterceptorServerPool(silentLogger);
    core = testCore(t.dir, { runtimeFactory: gatewayRuntimeFactory, history, pool, chain: new PoolChainService(pool) });
    core.onEvent((e) => events.push(e));
    await core.start({ demo: false });
    const config = {
      serverInfo: { name: 'Strict outputs', version: '1' },
      backend: everythingBackend,
      staticInterceptors: [{ transport: 'stdio', name: 'samples', command: process.execPath, arguments: [cliPath, 'serve-samples'] }],
      listen: { transport: 'http', host: '127.0.0.1', port: 0, path: '/mcp', tokens: { 'tok-1': 'tester' } },
      // Audit mode: every call also carries shadow steps (computed, not applied).
      overrides: { 'samples/tool-allowlist': { mode: 'audit', config: { allow: ['echo'] } } },
    };
    const info = await call<{ listen: { url: string } }>('gateways.create', { id: 'st', config, start: true });
    for (let i = 0; i < 300; i++) {
      if ((await call<{ status: string }[]>('servers.list', { id: 'st' })).every((x) => x.status === 'connected')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    client = await connectHttpClient(info.listen.url, 'tok-1');
    await client.callTool({ name: 'echo', arguments: { message: 'hello' } });
    await client.callTool({ name: 'echo', arguments: { message: 'write to alice@example.com' } });
    await client.callTool({ name: 'echo', arguments: { message: 'my ssn is 123-45-6789' } });
    await client.readResource({ uri: 'demo://resource/no-such-thing' }).catch(() => undefined);
    await client.listTools();

    // Paused before the chain (the params edited) and after the response chain (continued).
    await call('breakpoints.set', { id: 'st', live: [{ method: 'tools/call', target: 'get-sum', at: ['request-before-chain', 'response-after-chain'] }] });
    const seen = new Set<string>();
    const paused = client.callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } });
    await decideNext(seen, { kind: 'edit', payload: { name: 'get-sum', arguments: { a: 2, b: 5 } } });
    await decideNext(seen, { kind: 'continue' });
    await paused;
    await call('breakpoints.set', { id: 'st', live: [] });
    // A call's record waits for its sinks (off the answer's path): the paused call's lands just after its answer.
    await waitFor(
      async () => {
        await history.recorder.flush();
        return (await rows()).some((r) => r.target === 'get-sum');
      },
      10_000,
      'the paused call recorded',
    );
  });

  afterAll(async () => {
    await client?.close();
    await core?.shutdown();
    cluster?.stop();
    t.cleanup();
  });

  it('history.detail and a chain-only replay of every kind of execution pass the strict schemas', async () => {
    const all = await rows();
    const kinds = new Set(all.map((r) => r.outcome));
    expect([...kinds].sort(), JSON.stringify(all)).toEqual(['allow', 'blocked', 'error', 'mutated']);
    expect(all.some((r) => r.event === 'tools/list')).toBe(true);
    for (const row of all) {
      const d = await detail(row.id);
      expect(d.id).toBe(row.id);
      const replay = await call<ExecutionDetail>('replay.run', { executionId: row.id, mode: 'chain-only' });
      expect(replay).toMatchObject({ replayOf: row.id, replayMode: 'chain-only' });
    }

    const blocked = await detail(all.find((r) => r.outcome === 'blocked')!.id);
    expect(blocked.blockedBy).toMatchObject({ server: 'samples', interceptor: 'pii-validator', phase: 'request' });
    expect(blocked.requestTrace?.steps.some((s) => s.outcome === 'blocked' && s.result?.type === 'validation')).toBe(true);

    // The email redacted (the paused get-sum, whose params were edited, is mutated too).
    const mutated = await detail(all.find((r) => r.outcome === 'mutated' && r.target === 'echo')!.id);
    const step = mutated.requestTrace?.steps.find((s) => s.outcome === 'mutated');
    expect(step?.result).toMatchObject({ type: 'mutation', modified: true });
    expect(mutated.requestForwarded).not.toEqual(mutated.requestReceived);
    // The sample sink runs on every call: the detail carries its events, every field checked.
    expect(mutated.sinkEvents.length).toBeGreaterThan(0);
    expect(mutated.requestTrace?.steps.some((s) => s.shadow)).toBe(true);

    const error = await detail(all.find((r) => r.outcome === 'error')!.id);
    expect(error.errorReturned).toMatchObject({ code: expect.any(Number), message: expect.any(String) });

    const pausedRow = all.find((r) => r.target === 'get-sum')!;
    const pausedDetail = await detail(pausedRow.id);
    expect(pausedDetail.pauses?.map((p) => [p.at, p.decision, p.by])).toEqual([
      ['request-before-chain', 'edit', 'you'],
      ['response-after-chain', 'continue', 'you'],
    ]);
    expect(pausedDetail.pauses?.[0]?.after).toEqual({ name: 'get-sum', arguments: { a: 2, b: 5 } });
    expect(pausedDetail.session?.clientInfo?.name).toEqual(expect.any(String));

    // The replays are recorded and linked: the originals' details list them.
    expect((await detail(blocked.id)).replayedBy).toHaveLength(1);
  });

  it('chain.dryRun traces (blocked, mutated, response phase) pass the strict schema', async () => {
    const run = (phase: 'request' | 'response', payload: unknown) => call<ChainTrace>('chain.dryRun', { id: 'st', event: 'tools/call', phase, payload });
    const blocked = await run('request', { name: 'echo', arguments: { message: 'ssn 123-45-6789' } });
    expect(blocked).toMatchObject({ decision: 'block', blockedBy: { interceptor: 'pii-validator' } });
    const mutated = await run('request', { name: 'echo', arguments: { message: 'mail bob@example.com' } });
    expect(mutated).toMatchObject({ decision: 'allow', modified: true });
    const response = await run('response', { content: [{ type: 'text', text: 'hi' }] });
    expect(response.phase).toBe('response');
  });

  it('sinks.query pages pass the strict schema', async () => {
    const page = await call<{ items: SinkEvent[]; nextCursor: string | null }>('sinks.query', { limit: 500 });
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items.every((s) => s.interceptor === `${s.server}/${s.name}` && typeof s.recorded === 'boolean')).toBe(true);
    const one = await call<{ items: SinkEvent[] }>('sinks.query', { gateway: 'st', phase: 'response', recorded: true, limit: 5 });
    expect(one.items.length).toBeGreaterThan(0);
  });
});
