// The headless gateway records into a real SQLite file (--db): every exchange, with the blocking
// interceptor, survives the process; SIGTERM flushes before exit.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countExecutions, getExecutionRecord, listExecutions, listGateways, openStore } from '../../src/main/history/sqlite';
import { LineClient, cliPath, everythingBackend, waitFor, writeConfig } from './helpers';

describe('headless gateway with --db', { timeout: 90_000 }, () => {
  it('records every exchange into the SQLite file and flushes on SIGTERM', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'ic-gw-db-')), 'history.db');
    const config = writeConfig({
      serverInfo: { name: 'recorded-gateway', version: '1' },
      backend: { ...everythingBackend, env: { EVERYTHING_API_KEY: 'sk-do-not-store' } },
      staticInterceptors: [{ transport: 'stdio', name: 'samples', command: process.execPath, arguments: [cliPath, 'serve-samples'] }],
      overrides: { 'samples/tool-allowlist': { config: { allow: ['*'] } } },
    });
    const gw = new LineClient([cliPath, 'gateway', '--config', config, '--db', db]);
    await gw.initialize();
    const ok = (await gw.request(1, 'tools/call', { name: 'echo', arguments: { message: 'mail me@example.org' } })) as {
      result: { content: { text: string }[] };
    };
    expect(ok.result.content[0]!.text).toBe('Echo: mail [EMAIL_REDACTED]');
    const blocked = (await gw.request(2, 'tools/call', { name: 'echo', arguments: { message: 'ssn 078-05-1120' } })) as { result: { isError: boolean } };
    expect(blocked.result.isError).toBe(true);
    await gw.request(3, 'tools/list');
    gw.child.kill('SIGTERM');
    await waitFor(() => gw.exit !== undefined, 20_000, 'gateway exit');
    expect(gw.exit!.code).toBe(0);
    expect(gw.stderr).toContain(`recording to ${db}`);

    const store = openStore(db, { readonly: true, create: false });
    try {
      expect(countExecutions(store.db, { gateway: 'recorded-gateway' })).toBe(3);
      const page = listExecutions(store.db, { gateway: 'recorded-gateway', outcome: 'blocked' });
      expect(page.items).toHaveLength(1);
      const record = getExecutionRecord(store.db, page.items[0]!.id);
      expect(record?.blockedBy).toMatchObject({ server: 'samples', interceptor: 'pii-validator' });
      // The config it ran with is kept, without its secrets.
      const [gateway] = listGateways(store.db);
      expect(gateway).toMatchObject({ name: 'recorded-gateway', config: { overrides: { 'samples/tool-allowlist': { config: { allow: ['*'] } } } } });
      expect(gateway!.config).toMatchObject({ backend: { env: { EVERYTHING_API_KEY: '[redacted]' } } });
      expect(JSON.stringify(gateway!.config)).not.toContain('sk-do-not-store');
    } finally {
      store.close();
    }
  });
});
