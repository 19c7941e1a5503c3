// Redaction at rest: configured JSON paths and the secret formats of the samples are replaced
// before anything is written; the raw bytes of the database file (and its search index) never
// hold the redacted values.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRedactor, getExecutionRecord, listExecutions, openStore, RedactionPathError, SqliteHistoryWriter } from '../../src/main/history/sqlite';
import { parsePath, redactAtPath, redactPaths } from '../../src/main/history/model/redaction/json-paths';
import { makeExecution, tempDir } from './fixtures';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('redaction paths', () => {
  it('parses keys, indexes, wildcards, deep wildcards and quoted keys', () => {
    expect(parsePath('arguments.password')).toEqual(['arguments', 'password']);
    expect(parsePath('$.items[*].token')).toEqual(['items', '*', 'token']);
    expect(parsePath('**.apiKey')).toEqual(['**', 'apiKey']);
    expect(parsePath('headers["x.api-key"]')).toEqual(['headers', 'x.api-key']);
    expect(() => parsePath('a..b')).toThrow(RedactionPathError);
    expect(() => parsePath('a.**')).toThrow(/cannot end with \*\*/);
    expect(() => parsePath('a[b]')).toThrow(/quoted key/);
  });

  it('replaces matches copy-on-write, never touching the input', () => {
    const value = { arguments: { password: 'p', nested: { apiKey: 'k', keep: 1 } }, items: [{ token: 't1' }, { token: 't2', other: 2 }], untouched: { a: 1 } };
    const frozen = JSON.stringify(value);
    const out = redactPaths(
      value,
      [
        ['arguments', 'password'],
        ['**', 'apiKey'],
        ['items', '*', 'token'],
      ],
      '[R]',
    ) as typeof value;
    expect(out).toEqual({
      arguments: { password: '[R]', nested: { apiKey: '[R]', keep: 1 } },
      items: [{ token: '[R]' }, { token: '[R]', other: 2 }],
      untouched: { a: 1 },
    });
    expect(JSON.stringify(value)).toBe(frozen);
    expect(out.untouched).toBe(value.untouched);
  });

  it('redacts a value found at a path as it would be inside the payload', () => {
    const patterns = [
      ['arguments', 'password'],
      ['**', 'apiKey'],
    ];
    expect(redactAtPath('$.arguments.password', 'p', patterns, '[R]')).toBe('[R]');
    expect(redactAtPath('arguments.password.old', 'p', patterns, '[R]')).toBe('[R]'); // below a redacted field
    expect(redactAtPath('$.arguments', { password: 'p', user: 'u' }, patterns, '[R]')).toEqual({ password: '[R]', user: 'u' });
    expect(redactAtPath('$', { arguments: { password: 'p' }, deep: { apiKey: 'k' } }, patterns, '[R]')).toEqual({
      arguments: { password: '[R]' },
      deep: { apiKey: '[R]' },
    });
    expect(redactAtPath('$.config.nested', { apiKey: 'k', keep: 1 }, patterns, '[R]')).toEqual({ apiKey: '[R]', keep: 1 });
    expect(redactAtPath('$.arguments.user', 'u', patterns, '[R]')).toBe('u');
    // A JSON Pointer (JSON Schema's instancePath) is read as one; a malformed path, or none, cannot be shown to be
    // outside every pattern.
    expect(redactAtPath('/arguments/password', 'p', patterns, '[R]')).toBe('[R]');
    expect(redactAtPath('/arguments/user', 'u', patterns, '[R]')).toBe('u');
    expect(redactAtPath('/a~1b/apiKey', 'k', patterns, '[R]')).toBe('[R]');
    expect(redactAtPath('arguments[', 'p', patterns, '[R]')).toBe('[R]');
    expect(redactAtPath(undefined, 'p', patterns, '[R]')).toBe('[R]');
    expect(redactAtPath(undefined, 'p', [], '[R]')).toBe('p');
  });
});

describe('redaction at rest', () => {
  it("redacts a validation's suggested values at redacted paths, in the step and in the captured invoke answer", async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const path = join(t.dir, 'history.db');
    const secrets = ['suggested-password-5521', 'nested-suggested-password-7730', 'pointer-path-value-9911', 'unreadable-path-value-4410'];
    const redactor = createRedactor({ paths: ['arguments.password'] })!;
    const recorder = SqliteHistoryWriter.open(path, { writerThread: false, redactor });
    const rec = makeExecution({ outcome: 'allow' });
    const result = {
      interceptor: 'pii-validator',
      phase: 'request',
      type: 'validation',
      valid: false,
      severity: 'warn',
      suggestions: [
        { path: '$.arguments.password', value: secrets[0] },
        { path: '$.arguments', value: { password: secrets[1], to: 'kept@example.com' } },
        { path: '/arguments/password', value: secrets[2] },
        { path: 'arguments[', value: secrets[3] },
        { path: '$.arguments.to', value: 'bob@example.com' },
      ],
    };
    rec.requestTrace!.steps[1]!.result = result as never;
    recorder.recordExecution(rec);
    recorder.recordMessage({
      id: '01a24d7e-af32-7134-9517-f336fee99135',
      gateway: rec.gateway,
      at: Date.now(),
      side: 'interceptor',
      direction: 'in',
      kind: 'response',
      peer: 'samples',
      message: { jsonrpc: '2.0', id: 'i1', result },
      text: JSON.stringify({ jsonrpc: '2.0', id: 'i1', result }),
    });
    await recorder.close();

    const store = openStore(path, { create: false });
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    const stored = getExecutionRecord(store.db, rec.id)!;
    expect((stored.requestTrace!.steps[1]!.result as typeof result).suggestions).toEqual([
      { path: '$.arguments.password', value: '[REDACTED]' },
      { path: '$.arguments', value: { password: '[REDACTED]', to: 'kept@example.com' } },
      { path: '/arguments/password', value: '[REDACTED]' },
      { path: 'arguments[', value: '[REDACTED]' },
      { path: '$.arguments.to', value: 'bob@example.com' },
    ]);
    const body = store.db.prepare('SELECT body FROM messages').pluck().get() as string;
    expect(JSON.parse(body).result.suggestions[0].value).toBe('[REDACTED]');
    expect(JSON.parse(body).result.suggestions[4].value).toBe('bob@example.com');
    store.close();
    const bytes = readFileSync(path);
    for (const secret of secrets) expect(bytes.includes(Buffer.from(secret)), secret).toBe(false);
    // The caller's result is not modified.
    expect(result.suggestions[0]!.value).toBe(secrets[0]);
  });

  it('keeps configured fields and secrets out of the file, the search index and the detail', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const path = join(t.dir, 'history.db');
    const password = 'correct-horse-battery-staple-91823';
    const awsKey = 'AKIAIOSFODNN7EXAMPLE';
    const ghToken = 'ghp_' + 'a1B2c3D4e5'.repeat(4);
    const recorder = SqliteHistoryWriter.open(path, {
      writerThread: false,
      redactor: createRedactor({ paths: ['arguments.password'], secrets: true }),
    });
    const rec = makeExecution({ text: `deploy with ${awsKey} and ${ghToken}` });
    (rec.requestReceived as { arguments: Record<string, unknown> }).arguments.password = password;
    (rec.requestTrace!.steps[0]!.input as { arguments: Record<string, unknown> }).arguments.password = password;
    recorder.recordExecution(rec);
    await recorder.close();

    const store = openStore(path, { create: false });
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    const stored = getExecutionRecord(store.db, rec.id)!;
    expect((stored.requestReceived as { arguments: Record<string, unknown> }).arguments.password).toBe('[REDACTED]');
    expect((stored.requestTrace!.steps[0]!.input as { arguments: Record<string, unknown> }).arguments.password).toBe('[REDACTED]');
    expect(JSON.stringify(stored)).toContain('<mcp:secret-ref:aws_access_key:');
    expect(JSON.stringify(stored)).toContain('<mcp:secret-ref:github_pat:');
    expect(listExecutions(store.db, { search: 'AKIAIOSFODNN7EXAMPLE' }).items).toEqual([]);
    expect(listExecutions(store.db, { search: 'correct horse battery' }).items).toEqual([]);
    store.close();
    const bytes = readFileSync(path);
    for (const secret of [password, awsKey, ghToken]) expect(bytes.includes(Buffer.from(secret)), secret).toBe(false);
    // The caller's record is not modified by redaction.
    expect((rec.requestReceived as { arguments: Record<string, unknown> }).arguments.password).toBe(password);
  });

  it('replaces a redacted value where free text quotes it: validation messages, the block, captured answers of the same call', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const path = join(t.dir, 'history.db');
    const password = 'hunter2-quoted-5512';
    const redactor = createRedactor({ paths: ['arguments.password', 'arguments.pin'] })!;
    const recorder = SqliteHistoryWriter.open(path, { writerThread: false, redactor });
    const rec = makeExecution({ outcome: 'blocked' });
    const why = `password '${password}' is on a breach list`;
    (rec.requestReceived as { arguments: Record<string, unknown> }).arguments.password = password;
    (rec.requestReceived as { arguments: Record<string, unknown> }).arguments.pin = 'abc'; // too short to look for
    const validation = rec.requestTrace!.steps[1]!;
    validation.input = rec.requestReceived;
    (validation.result as { messages: { message: string }[] }).messages = [{ message: `${why}; pin abc` }];
    rec.blockedBy = { server: 'samples', interceptor: 'pii-validator', phase: 'request', event: 'tools/call', reason: why, messages: [why] };
    rec.responseReturned = { content: [{ type: 'text', text: `Blocked by samples/pii-validator (request): ${why}` }], isError: true };
    const message = (side: 'client' | 'interceptor', direction: 'in' | 'out', body: Record<string, unknown>, executionId?: string) =>
      recorder.recordMessage({
        id: `01a24d7e-af32-7134-9517-${String(Math.floor(Math.random() * 1e12)).padStart(12, '0')}`,
        gateway: rec.gateway,
        at: Date.now(),
        side,
        direction,
        kind: 'method' in body ? 'request' : 'response',
        ...(executionId ? { executionId } : {}),
        message: { jsonrpc: '2.0', ...body },
        text: JSON.stringify({ jsonrpc: '2.0', ...body }),
      });
    // The client's request teaches the value; the validator's answer, captured later, only quotes it.
    message('client', 'in', { id: 7, method: 'tools/call', params: rec.requestReceived }, rec.id);
    message('interceptor', 'in', { id: 'i1', result: { valid: false, messages: [{ message: why }] } }, rec.id);
    // Another call's answer is left as it is: nothing of that call was redacted.
    message('interceptor', 'in', { id: 'i2', result: { valid: false, messages: [{ message: `unrelated ${password}` }] } }, 'another-execution');
    recorder.recordExecution(rec);
    await recorder.close();

    const store = openStore(path, { create: false });
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    const stored = getExecutionRecord(store.db, rec.id)!;
    expect(stored.blockedBy!.messages).toEqual(["password '[REDACTED]' is on a breach list"]);
    expect((stored.requestTrace!.steps[1]!.result as { messages: { message: string }[] }).messages[0]!.message).toBe(
      "password '[REDACTED]' is on a breach list; pin abc",
    );
    expect(JSON.stringify(stored.responseReturned)).toContain("Blocked by samples/pii-validator (request): password '[REDACTED]' is on a breach list");
    const bodies = store.db.prepare('SELECT body FROM messages ORDER BY id').pluck().all() as string[];
    expect(bodies.filter((b) => b.includes(password))).toEqual([bodies.find((b) => b.includes('unrelated'))]);
    expect(bodies.some((b) => b.includes("password '[REDACTED]' is on a breach list"))).toBe(true);
    store.close();
    // The record's own file pages: only the unrelated call's message still holds the value.
    expect(readFileSync(path).toString('latin1').split(password).length - 1).toBe(1);
    expect(rec.blockedBy.messages[0]).toBe(why); // the caller's record is not modified
  });

  it("never replaces a quoted value in what identifies or dates a record (its id, start time, a step's interceptor)", async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const path = join(t.dir, 'history.db');
    const recorder = SqliteHistoryWriter.open(path, {
      writerThread: false,
      redactor: createRedactor({ paths: ['arguments.code', 'arguments.part', 'arguments.who'] })!,
    });
    const rec = makeExecution({ outcome: 'blocked' });
    const year = rec.startedAt.slice(0, 4); // a redacted "2026" is also in the start time
    const idPart = rec.id.slice(0, 6); // and a piece of the uuid
    (rec.requestReceived as { arguments: Record<string, unknown> }).arguments.who = 'pii-validator'; // and the blocker's name
    (rec.requestReceived as { arguments: Record<string, unknown> }).arguments.code = year;
    (rec.requestReceived as { arguments: Record<string, unknown> }).arguments.part = idPart;
    rec.requestTrace!.steps[1]!.input = rec.requestReceived;
    (rec.requestTrace!.steps[1]!.result as { messages: { message: string }[] }).messages = [{ message: `code ${year} and ${idPart} are expired` }];
    recorder.recordExecution(rec);
    await recorder.close();
    const store = openStore(path, { create: false });
    const stored = getExecutionRecord(store.db, rec.id)!; // found by its id: the id is intact
    store.close();
    expect(stored.startedAt).toBe(rec.startedAt);
    expect(stored.requestTrace!.steps[1]).toMatchObject({ server: 'samples', name: 'pii-validator' });
    expect(stored.blockedBy).toMatchObject({ server: 'samples', interceptor: 'pii-validator' });
    expect((stored.requestTrace!.steps[1]!.result as { messages: { message: string }[] }).messages[0]!.message).toBe(
      'code [REDACTED] and [REDACTED] are expired',
    );
  });

  it("redacts a breakpoint's edit (the payload before and after) and a block message that quotes a redacted value", async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const path = join(t.dir, 'history.db');
    const recorder = SqliteHistoryWriter.open(path, { writerThread: false, redactor: createRedactor({ paths: ['arguments.password'] })! });
    const rec = makeExecution({ outcome: 'blocked' });
    const before = 'paused-before-7781';
    const after = 'paused-after-7782';
    const pause = { at: 'request-before-chain' as const, breakpoint: 'bp', pausedAt: rec.startedAt, resolvedAt: rec.startedAt, waitedMs: 5, by: 'you' };
    rec.pauses = [
      {
        ...pause,
        id: 'p1',
        decision: 'edit',
        before: { name: 'login', arguments: { password: before } },
        after: { name: 'login', arguments: { password: after } },
      },
      { ...pause, id: 'p2', decision: 'block', message: `not with ${after}` },
    ];
    recorder.recordExecution(rec);
    await recorder.close();
    const store = openStore(path, { create: false });
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    const stored = getExecutionRecord(store.db, rec.id)!;
    store.close();
    expect(stored.pauses).toMatchObject([
      { decision: 'edit', before: { arguments: { password: '[REDACTED]' } }, after: { arguments: { password: '[REDACTED]' } } },
      { decision: 'block', message: 'not with [REDACTED]' },
    ]);
    const bytes = readFileSync(path);
    for (const secret of [before, after]) expect(bytes.includes(Buffer.from(secret)), secret).toBe(false);
  });

  it('rejects a malformed path or an unknown secret format up front', () => {
    expect(() => createRedactor({ paths: ['a..b'] })).toThrow(RedactionPathError);
    expect(() => createRedactor({ secrets: ['no_such_format'] })).toThrow(/unknown secret format/);
    expect(createRedactor({})).toBeUndefined();
  });
});
