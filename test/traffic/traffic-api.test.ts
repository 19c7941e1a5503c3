// The Traffic procedures through the real dispatcher: a real gateway (server-everything + the sample
// interceptors) recording into a real SQLite file, traffic from a real MCP client, then filtered pages,
// capped counts, facets, replays (backend, chain only, edited), a bulk replay after disabling
// pii-validator, selection export and sink events.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import type { ApiEvent } from '../../src/shared/api/events';
import type { BulkJob } from '../../src/shared/api/models-traffic';
import type { TrafficRow } from '../../src/shared/api/models-execution';
import { gatewayRuntimeFactory } from '../../src/main/services/gateway-adapter';
import { SqliteHistory } from '../../src/main/history/sqlite';
import type { AppCore } from '../../src/main/services/app-core';
import { importFromString, openStore } from '../../src/main/history/sqlite';
import { dispatcherCalls } from '../app/dispatch';
import { tempDir, testCore } from '../app/helpers';
import { connectHttpClient } from '../app/mcp-client';
import { cliPath, everythingBackend, waitFor } from '../gateway/helpers';

type Detail = Record<string, unknown> & { id: string; outcome: string; replayOf?: string; replayedBy: string[]; replayMode?: string };

const baseConfig = (overrides: Record<string, unknown> = {}) => ({
  serverInfo: { name: 'Traffic test', version: '1' },
  backend: everythingBackend,
  staticInterceptors: [{ transport: 'stdio', name: 'samples', command: process.execPath, arguments: [cliPath, 'serve-samples'] }],
  listen: { transport: 'http', host: '127.0.0.1', port: 0, path: '/mcp', tokens: { 'tok-1': 'tester' } },
  overrides: { 'samples/tool-allowlist': { mode: 'audit', config: { allow: ['echo'] } }, ...overrides },
});

describe('Traffic API over a real gateway and store', () => {
  const t = tempDir('ic-traffic-');
  let core: AppCore;
  let client: Client;
  const events: ApiEvent[] = [];

  const { call, fails } = dispatcherCalls(() => core);
  async function rows(filter: Record<string, unknown> = {}): Promise<TrafficRow[]> {
    return (await call<{ items: TrafficRow[] }>('history.query', { filter, limit: 100 })).items;
  }

  beforeAll(async () => {
    const history = SqliteHistory.open(join(t.dir, 'history.db'));
    core = testCore(t.dir, { runtimeFactory: gatewayRuntimeFactory, history });
    core.onEvent((e) => events.push(e));
    await core.start({ demo: false });
    const info = await call<{ id: string; listen: { url: string } }>('gateways.create', { id: 'tt', config: baseConfig(), start: true });
    // Traffic only once the interceptor server is up: a cold start on a loaded machine must not turn the
    // first calls into fail-closed blocks.
    for (let i = 0; i < 300; i++) {
      const servers = await call<{ status: string }[]>('servers.list', { id: 'tt' });
      if (servers.every((x) => x.status === 'connected')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    client = await connectHttpClient(info.listen.url, 'tok-1');
    await client.callTool({ name: 'echo', arguments: { message: 'hello' } });
    await client.callTool({ name: 'echo', arguments: { message: 'write to alice@example.com' } });
    await client.callTool({ name: 'echo', arguments: { message: 'my ssn is 123-45-6789' } });
    await client.callTool({ name: 'echo', arguments: { message: 'social security 987-65-4321' } });
    await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } });
    // A call's record waits for its sinks (they run off the answer's path, at most RECORD_WAITS_FOR_SINKS_MS).
    await waitFor(
      async () => {
        await history.recorder.flush();
        return (await rows()).length >= 5;
      },
      10_000,
      'the five calls recorded',
    );
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await core?.shutdown();
    t.cleanup();
  });

  it('pages newest first with badges, filters by outcome in the store, counts lazily and lists facets', async () => {
    const all = await rows();
    expect(
      all.map((r) => r.outcome),
      JSON.stringify(all.map((r) => r.blockedBy)),
    ).toEqual(['allow', 'blocked', 'blocked', 'mutated', 'allow']);
    expect(all.every((r) => r.gateway === 'tt' && r.event === 'tools/call')).toBe(true);
    // tool-allowlist runs in audit mode: every call carries the shadow badge.
    expect(all.every((r) => r.shadow === true)).toBe(true);
    const blocked = await rows({ outcome: 'blocked' });
    expect(blocked).toHaveLength(2);
    expect(blocked.every((r) => r.blockedBy?.interceptor === 'pii-validator')).toBe(true);
    expect(await rows({ blockedBy: 'samples/pii-validator' })).toHaveLength(2);
    expect((await rows({ search: 'alice*' })).map((r) => r.outcome)).toEqual(['mutated']);
    expect(await rows({ target: 'get-sum' })).toHaveLength(1);
    expect(await call('history.count', { filter: {}, cap: 3 })).toEqual({ count: 3, capped: true });
    expect(await call('history.count', { filter: { outcome: 'blocked' } })).toEqual({ count: 2, capped: false });
    const facets = await call<{ gateways: string[]; events: string[]; targets: string[]; interceptors: string[] }>('history.facets');
    expect(facets.gateways).toEqual(['tt']);
    expect(facets.events).toEqual(['tools/call']);
    expect(facets.targets).toEqual(['echo', 'get-sum']);
    expect(facets.interceptors).toContain('samples/pii-validator');
    expect((await fails('history.query', { filter: { since: 'yesterday' } })).code).toBe('invalid_input');
  });

  it('replays through the backend: recorded, linked both ways, pushed to the screens', async () => {
    const [original] = await rows({ outcome: 'mutated' });
    events.length = 0;
    const replay = await call<Detail>('replay.run', { executionId: original!.id });
    expect(replay.replayOf).toBe(original!.id);
    expect(replay.replayMode).toBe('backend');
    expect(replay.outcome).toBe('mutated');
    expect(JSON.stringify(replay.responseReceived)).toContain('[EMAIL_REDACTED]');
    const detail = await call<Detail>('history.detail', { executionId: original!.id });
    expect(detail.replayedBy).toContain(replay.id);
    expect((await rows())[0]).toMatchObject({ id: replay.id, replayOf: original!.id });
    expect(events.some((e) => e.type === 'tables.changed' && e.tables.includes('replays'))).toBe(true);
  });

  it('edit & replay: removing the SSN turns a blocked call into an allowed one', async () => {
    const [original] = await rows({ outcome: 'blocked' });
    const edited = await call<Detail>('replay.run', { executionId: original!.id, params: { name: 'echo', arguments: { message: 'nothing secret' } } });
    expect(edited).toMatchObject({ outcome: 'allow', replayOf: original!.id });
    expect(JSON.stringify(edited.responseReturned)).toContain('nothing secret');
  });

  it('replays the chain only, without the backend', async () => {
    const [original] = await rows({ outcome: 'blocked' });
    const replay = await call<Detail>('replay.run', { executionId: original!.id, mode: 'chain-only' });
    expect(replay).toMatchObject({ outcome: 'blocked', replayMode: 'chain-only', replayOf: original!.id });
    expect(replay.responseReceived).toBeUndefined();
  });

  it('bulk-replays the blocked calls after pii-validator is disabled and groups blocked → allowed', async () => {
    await call('gateways.update', { id: 'tt', config: baseConfig({ 'samples/pii-validator': { enabled: false } }) });
    events.length = 0;
    // Three blocked executions match, one of them the chain-only replay above: the plan says 2, as the job does.
    expect(await call('history.count', { filter: { outcome: 'blocked' } })).toEqual({ count: 3, capped: false });
    expect(await call('replay.bulkPlan', { filter: { outcome: 'blocked' } })).toEqual({ toReplay: 2, replaysSkipped: 1, more: false });
    expect(await call('replay.bulkPlan', { filter: { outcome: 'blocked' }, max: 1 })).toMatchObject({ toReplay: 1, more: true });
    const started = await call<BulkJob>('replay.bulkStart', { filter: { outcome: 'blocked' } });
    expect(started).toMatchObject({ state: 'running', total: 2 });
    let job = started;
    for (let i = 0; i < 200 && job.state === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      job = await call<BulkJob>('replay.bulkStatus', { jobId: started.jobId });
    }
    expect(job.state).toBe('done');
    expect(job.done).toBe(2);
    const group = job.groups.find((g) => g.key === 'outcome:blocked>allow');
    expect(group).toMatchObject({ kind: 'outcome', label: 'blocked → allowed', count: 2 });
    for (const pair of group!.pairs) expect((await call<Detail>('history.detail', { executionId: pair.replayId })).replayOf).toBe(pair.originalId);
    expect(events.some((e) => e.type === 'replay.progress' && e.state === 'done' && e.done === 2)).toBe(true);
    expect((await fails('replay.bulkStatus', { jobId: 'nope' })).code).toBe('not_found');
  }, 60_000);

  it('exports a selection as JSONL that imports into a fresh store', async () => {
    const picked = (await rows({ outcome: 'blocked' })).slice(0, 2).map((r) => r.id);
    const out = await call<{ jsonl: string; count: number }>('history.export', { ids: picked });
    expect(out.count).toBe(2);
    const fresh = openStore(join(t.dir, 'fresh.db'));
    try {
      expect(importFromString(fresh.db, out.jsonl).executions).toBe(2);
    } finally {
      fresh.close();
    }
    expect((await fails('history.export', { ids: ['missing-id'] })).code).toBe('not_found');
  });

  it('pages sink events by interceptor and recorded flag, each linked to its execution', async () => {
    const page = await call<{ items: { executionId: string; interceptor: string; recorded: boolean }[] }>('sinks.query', {
      interceptor: 'request-logger',
      recorded: true,
    });
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items.every((e) => e.interceptor === 'samples/request-logger' && e.recorded)).toBe(true);
    const detail = await call<Detail>('history.detail', { executionId: page.items[0]!.executionId });
    expect(detail.id).toBe(page.items[0]!.executionId);
    expect((await call<{ items: unknown[] }>('sinks.query', { interceptor: 'request-logger', recorded: false })).items).toEqual([]);
  });
});
