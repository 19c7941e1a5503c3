// What a stdio backend sees of the gateway's environment ([path-fidelity] item 7): the headless gateway runs
// with secrets of its own (PGPASSWORD for its history, API tokens); server-everything's `get-env` tool hands
// its whole environment to any client. The backend gets the MCP SDK's minimal default plus the config's `env`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LineClient, everythingBackend, gatewayArgs, writeConfig } from './helpers';

const SECRETS = { PGPASSWORD: 'pg-env-secret-LEAK', MY_API_TOKEN: 'tok-env-secret-LEAK' };

describe('the environment of a stdio backend', () => {
  let gw: LineClient;
  let env: Record<string, string>;
  beforeAll(async () => {
    const config = writeConfig({ backend: { ...everythingBackend, env: { NAMED_FOR_BACKEND: 'given-by-config' } } });
    gw = new LineClient(gatewayArgs(config, '--no-watch'), {
      ...process.env,
      ...SECRETS,
      HOME: process.env.HOME ?? '/root',
      PATH: process.env.PATH ?? '/usr/bin',
    });
    await gw.initialize();
    const res = await gw.request(1, 'tools/call', { name: 'get-env', arguments: {} });
    const text = (res.result as { content: { text: string }[] }).content[0]!.text;
    env = JSON.parse(text) as Record<string, string>;
  }, 60_000);
  afterAll(async () => {
    await gw?.stop();
  });

  it("does not carry the gateway's own variables (PGPASSWORD, tokens)", () => {
    expect(env.PGPASSWORD).toBeUndefined();
    expect(env.MY_API_TOKEN).toBeUndefined();
    expect(JSON.stringify(env)).not.toMatch(/env-secret-LEAK/);
  });

  it('carries what the config names in env, and the minimal default (PATH, HOME)', () => {
    expect(env.NAMED_FOR_BACKEND).toBe('given-by-config');
    expect(env.PATH).toBe(process.env.PATH);
    expect(env.HOME).toBe(process.env.HOME);
  });
});
