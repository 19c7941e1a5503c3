// Message capture end to end: a real v2 SDK client through a real gateway (HTTP listener) to
// server-everything, with the sample interceptor server over stdio, recording into a real SQLite file.
// Every side's messages land in the store, linked to the session and to the execution they belong to;
// notifications (initialized, progress) too; a backend that cannot be reached leaves a connect-error entry;
// `captureMessages: false` records none.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gateway } from '../../src/main/gateway';
import { listExecutions, listMessages, listMessageSessions, messageMethods, SqliteHistoryWriter, type MessageSummary } from '../../src/main/history/sqlite';
import { parseGatewayConfig } from '../../src/shared/config';
import { connectClient } from '../gateway/everything-clients';
import { freePort } from '../gateway/helpers';
import { samplesGatewayConfig } from '../gateway/samples-gateway-config';

const dir = mkdtempSync(join(tmpdir(), 'ic-messages-'));
let recorder: SqliteHistoryWriter;

beforeAll(() => {
  recorder = SqliteHistoryWriter.open(join(dir, 'history.db'));
});
afterAll(async () => {
  await recorder.close();
});

function all(gateway: string, filter: Omit<Parameters<typeof listMessages>[1], 'gateway'> = {}): MessageSummary[] {
  return listMessages(recorder.store.db, { gateway, ...filter }, { limit: 1000 }).items;
}

describe('message capture', { timeout: 90_000 }, () => {
  it('records every side of a call, linked to its session and execution, notifications included', async () => {
    const gateway = new Gateway(samplesGatewayConfig(), { name: 'capture-gw', recorder });
    await gateway.start();
    try {
      const client = await connectClient('v2', { http: { url: gateway.url! } });
      const echoed = await client.callTool('echo', { message: 'hello messages' });
      expect(echoed.content[0]!.text).toBe('Echo: hello messages');
      const progress: number[] = [];
      await client.callTool('trigger-long-running-operation', { duration: 0.2, steps: 2 }, { onprogress: (p) => progress.push(p.progress) });
      expect(progress.length).toBeGreaterThan(0);
      await client.close();
    } finally {
      await gateway.stop();
    }
    await recorder.flush();

    const [execution] = listExecutions(recorder.store.db, { gateway: 'capture-gw', event: 'tools/call', target: 'echo' }).items;
    expect(execution).toBeDefined();
    const sessionId = execution!.sessionId!;
    const sessions = listMessageSessions(recorder.store.db, 'capture-gw');
    expect(sessions.map((s) => s.sessionId)).toContain(sessionId);

    // The echo call on every side, each hop carrying the execution id.
    const ofEcho = all('capture-gw', { executionId: execution!.id });
    const hops = new Set(ofEcho.map((m) => `${m.side}:${m.direction}:${m.kind}`));
    for (const hop of [
      'client:in:request',
      'backend:out:request',
      'backend:in:response',
      'client:out:response',
      'interceptor:out:request',
      'interceptor:in:response',
    ]) {
      expect(hops, hop).toContain(hop);
    }
    const fromClient = ofEcho.find((m) => m.side === 'client' && m.direction === 'in')!;
    expect(fromClient).toMatchObject({ method: 'tools/call', sessionId, kind: 'request' });
    expect(fromClient.preview).toContain('hello messages');
    // The client's answer is labelled with the method it answers; the interceptor invokes carry the session.
    expect(ofEcho.find((m) => m.side === 'client' && m.direction === 'out')).toMatchObject({ method: 'tools/call', jsonrpcId: fromClient.jsonrpcId });
    const invokes = ofEcho.filter((m) => m.side === 'interceptor' && m.kind === 'request');
    expect(invokes.every((m) => m.method === 'interceptor/invoke' && m.sessionId === sessionId && m.peer === 'samples')).toBe(true);

    // Notifications: the client's initialized (both hops) and the backend's progress (linked to its call).
    const inSession = all('capture-gw', { session: sessionId });
    const initialized = inSession.filter((m) => m.method === 'notifications/initialized');
    expect(initialized.map((m) => `${m.side}:${m.direction}`).sort()).toEqual(['backend:out', 'client:in']);
    const progressNotes = inSession.filter((m) => m.method === 'notifications/progress');
    expect(progressNotes.length).toBeGreaterThanOrEqual(2);
    expect(progressNotes.every((m) => m.kind === 'notification' && m.executionId !== undefined)).toBe(true);

    // The gateway's own traffic (discovery) has no session and is listed as such.
    expect(sessions.some((s) => s.sessionId === null)).toBe(true);
    expect(all('capture-gw', { session: null }).some((m) => m.method === 'interceptors/list' && m.side === 'interceptor')).toBe(true);

    // Filters are store queries: side, direction, kind, method, text.
    expect(all('capture-gw', { side: 'backend', direction: 'in', kind: 'notification' }).every((m) => m.side === 'backend' && m.kind === 'notification')).toBe(
      true,
    );
    expect(all('capture-gw', { method: 'tools/call' }).length).toBeGreaterThanOrEqual(8);
    expect(all('capture-gw', { search: 'hello messages' }).length).toBeGreaterThanOrEqual(4);
    expect(messageMethods(recorder.store.db, 'capture-gw')).toEqual(
      expect.arrayContaining(['initialize', 'tools/call', 'interceptor/invoke', 'notifications/progress']),
    );
    // Newest first, keyset pages.
    const page1 = listMessages(recorder.store.db, { gateway: 'capture-gw', session: sessionId }, { limit: 5 });
    const page2 = listMessages(recorder.store.db, { gateway: 'capture-gw', session: sessionId }, { limit: 5, cursor: page1.nextCursor });
    const keys = [...page1.items, ...page2.items].map((m) => Number(m.key));
    expect(keys).toEqual([...keys].sort((a, b) => b - a));

    // Ids are time-ordered UUIDs (v7), so the uuid and execution indexes grow at their end as messages are
    // written (random v4 ids dirtied pages all over both B-trees): in key order, their time prefix never goes back.
    const stored = recorder.store.db.prepare('SELECT uuid, execution_uuid AS execution FROM messages WHERE session_key = ? ORDER BY id').all(sessionId) as {
      uuid: string;
      execution: string | null;
    }[];
    const v7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(stored.length).toBeGreaterThan(10);
    for (const row of stored) expect(row.uuid).toMatch(v7);
    const prefixes = stored.map((r) => r.uuid.slice(0, 13));
    expect(prefixes).toEqual([...prefixes].sort());
    expect(execution!.id).toMatch(v7);
  });

  it('records a failed backend connect as a connect-error entry with the error', async () => {
    const closed = await freePort();
    const parsed = parseGatewayConfig({
      backend: { transport: 'http', name: 'down', endpoint: `http://127.0.0.1:${closed}/mcp` },
      listen: { transport: 'http', port: 0 },
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const gateway = new Gateway(parsed.config, { name: 'down-gw', recorder });
    await gateway.start();
    try {
      await expect(connectClient('v2', { http: { url: gateway.url! } })).rejects.toThrow();
    } finally {
      await gateway.stop();
    }
    await recorder.flush();
    const failed = all('down-gw', { kind: 'connect-error' });
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ side: 'backend', peer: 'down' });
    expect(failed[0]!.preview).toContain(`127.0.0.1:${closed}`);
    // The client's initialize and the error it was answered with are there too.
    const methods = all('down-gw', { session: failed[0]!.sessionId! }).map((m) => `${m.side}:${m.direction}:${m.kind}:${m.method ?? ''}`);
    expect(methods).toEqual(expect.arrayContaining(['client:in:request:initialize', 'client:out:error:initialize']));
  });

  it('records a server→client request (sampling) on both hops, linked to its own execution', async () => {
    const gateway = new Gateway(samplesGatewayConfig(), { name: 'sampling-gw', recorder });
    await gateway.start();
    try {
      const client = await connectClient('v2', { http: { url: gateway.url! } });
      await client.callTool('trigger-sampling-request', { prompt: 'sample me', maxTokens: 20 });
      expect(client.seen.samplingRequests).toHaveLength(1);
      await client.close();
    } finally {
      await gateway.stop();
    }
    await recorder.flush();
    const sampling = all('sampling-gw', { method: 'sampling/createMessage' }).filter((m) => m.side !== 'interceptor');
    expect(sampling.map((m) => `${m.side}:${m.direction}:${m.kind}`).sort()).toEqual([
      'backend:in:request',
      'backend:out:response',
      'client:in:response',
      'client:out:request',
    ]);
    const [execution] = listExecutions(recorder.store.db, { gateway: 'sampling-gw', event: 'sampling/createMessage' }).items;
    expect(execution).toBeDefined();
    expect(new Set(sampling.map((m) => m.executionId))).toEqual(new Set([execution!.id]));
  });

  it('records an interceptor server that cannot be started as a connect-error entry', async () => {
    const parsed = parseGatewayConfig({
      backend: samplesGatewayConfig().backend,
      staticInterceptors: [{ transport: 'stdio', name: 'missing', command: '/nonexistent/interceptor-server', arguments: [], failOpen: true }],
      listen: { transport: 'http', port: 0 },
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const gateway = new Gateway(parsed.config, { name: 'missing-interceptor-gw', recorder });
    await gateway.start();
    try {
      const client = await connectClient('v2', { http: { url: gateway.url! } });
      await client.callTool('echo', { message: 'fail open' });
      await client.close();
    } finally {
      await gateway.stop();
    }
    await recorder.flush();
    const failed = all('missing-interceptor-gw', { side: 'interceptor', kind: 'connect-error' });
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(failed[0]).toMatchObject({ peer: 'missing' });
    expect(failed[0]!.preview).toContain('/nonexistent/interceptor-server');
  });

  it('records nothing with captureMessages: false (executions still are)', async () => {
    const config = { ...samplesGatewayConfig(), captureMessages: false };
    const gateway = new Gateway(config, { name: 'quiet-gw', recorder });
    await gateway.start();
    try {
      const client = await connectClient('v2', { http: { url: gateway.url! } });
      await client.callTool('echo', { message: 'not captured' });
      await client.close();
    } finally {
      await gateway.stop();
    }
    await recorder.flush();
    expect(listExecutions(recorder.store.db, { gateway: 'quiet-gw' }).items.length).toBeGreaterThan(0);
    expect(all('quiet-gw')).toHaveLength(0);
  });
});
