// Redaction at rest: configured JSON paths and the secret formats of the samples are replaced
// before anything is written; the raw bytes of the database file (and its search index) never
// hold the redacted values.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRedactor, getExecutionRecord, listExecutions, openStore, RedactionPathError, SqliteHistoryWriter } from '../../src/main/history/sqlite';
import { parsePath, redactPaths } from '../../src/main/history/model/redaction/json-paths';
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
});

describe('redaction at rest', () => {
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

  it('rejects a malformed path or an unknown secret format up front', () => {
    expect(() => createRedactor({ paths: ['a..b'] })).toThrow(RedactionPathError);
    expect(() => createRedactor({ secrets: ['no_such_format'] })).toThrow(/unknown secret format/);
    expect(createRedactor({})).toBeUndefined();
  });
});
