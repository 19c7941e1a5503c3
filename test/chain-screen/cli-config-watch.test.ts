// A headless gateway launched over stdio (as an MCP client's config launches it) follows its config file:
// a save (atomic rename, as the app writes it) hot-reloads the chain in the same process and the same
// client session; an invalid save is reported on stderr and ignored.
import { renameSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, everythingBackend, gatewayArgs, LineClient, waitFor, writeConfig } from '../gateway/helpers';

const config = (overrides: Record<string, unknown>) => ({
  backend: everythingBackend,
  staticInterceptors: [{ transport: 'stdio', name: 'samples', command: process.execPath, arguments: [cliPath, 'serve-samples'] }],
  overrides: { 'samples/tool-allowlist': { enabled: false }, ...overrides },
});

function save(path: string, value: unknown): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`);
  renameSync(tmp, path);
}

const echoText = (res: Record<string, unknown>) => JSON.stringify(res.result ?? res.error);

describe('headless gateway follows its config file', () => {
  let path: string;
  let client: LineClient;

  beforeAll(async () => {
    path = writeConfig(config({ 'samples/email-redactor': { enabled: false } }));
    client = new LineClient(gatewayArgs(path));
    await client.initialize();
  }, 30_000);

  afterAll(async () => {
    await client?.stop();
  });

  it('hot-reloads a saved chain in the same session, and ignores an invalid save', async () => {
    const call = (id: string) => client.request(id, 'tools/call', { name: 'echo', arguments: { message: 'write to bob@example.com' } });
    expect(echoText(await call('c1'))).toContain('bob@example.com');
    const pid = client.child.pid;

    save(path, config({}));
    await waitFor(() => client.stderr.includes('reloaded its config (hot: sessions kept)'), 10_000, 'the reload');
    expect(echoText(await call('c2'))).toContain('[EMAIL_REDACTED]');

    save(path, '{ "backend": ');
    await waitFor(() => client.stderr.includes('changed but is invalid; still running the previous config'), 10_000, 'the invalid-config report');
    expect(echoText(await call('c3'))).toContain('[EMAIL_REDACTED]');
    expect(client.child.pid).toBe(pid);
    expect(client.exit).toBeUndefined();
  }, 60_000);
});
