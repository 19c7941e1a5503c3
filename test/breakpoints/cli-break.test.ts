// `interceptor-console gateway --break tools/call:echo` from the built CLI: a real v2 client calls through
// its HTTP listener, each pause is printed on stderr and answered on the piped stdin (edit in a stand-in
// $EDITOR, block with a message, answer with a result written in the editor, continue); the record says
// who decided ("terminal").
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, everythingBackend, root, waitFor, writeConfig } from '../gateway/helpers';

const editor = `${process.execPath} ${join(root, 'test/breakpoints/fixtures/stand-in-editor.mjs')}`;
const text = (r: unknown) => ((r as { content: { text?: string }[] }).content[0]?.text ?? '') as string;

describe('gateway --break prompts on the terminal', { timeout: 120_000 }, () => {
  let child: ChildProcessWithoutNullStreams;
  let stderr = '';
  let client: Client;
  let prompts = 0;

  /** Waits for the next prompt (counted, so an earlier prompt is never taken for this one), then answers. */
  async function answer(...lines: string[]) {
    const want = ++prompts;
    await waitFor(() => (stderr.match(/\[break\] \[c\]ontinue/g) ?? []).length >= want, 20_000, `prompt ${want}; stderr:\n${stderr}`);
    for (const line of lines) child.stdin.write(`${line}\n`);
  }

  beforeAll(async () => {
    const config = writeConfig({ backend: everythingBackend, listen: { transport: 'http', port: 0, tokens: { 'tok-terminal-test': 'dev' } } });
    child = spawn(process.execPath, [cliPath, 'gateway', '--config', config, '--no-record', '--break', 'tools/call:echo'], {
      env: { ...process.env, EDITOR: editor, VISUAL: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (t: string) => (stderr += t));
    await waitFor(() => /listening on (http:\S+)/.test(stderr), 30_000, `the URL; stderr:\n${stderr}`);
    const url = /listening on (http:\S+)/.exec(stderr)![1]!;
    client = new Client({ name: 'cli-break-test', version: '1' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: 'Bearer tok-terminal-test' } } }));
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await waitFor(() => child.exitCode !== null || child.signalCode !== null, 15_000, 'gateway exit');
    }
  });

  it('shows the paused call; "e" edits it in $EDITOR and the backend receives the edit', async () => {
    const call = client.callTool({ name: 'echo', arguments: { message: 'typed' } });
    await answer('e');
    expect(text(await call)).toBe('Echo: from the editor');
    expect(stderr).toContain('[break] paused: tools/call echo (request, before the chain) at breakpoint tools/call:echo');
    expect(stderr).toContain('"message": "typed"');
  });

  it('"b" blocks with the message typed next', async () => {
    const call = client.callTool({ name: 'echo', arguments: { message: 'x' } });
    await answer('b', 'refused at the terminal');
    const result = await call;
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('Blocked by breakpoint/tools/call:echo (request): refused at the terminal');
  });

  it('"a" answers with the result written in $EDITOR; an unknown key asks again; "c" continues', async () => {
    const mocked = client.callTool({ name: 'echo', arguments: { message: 'x' } });
    await answer('a');
    expect(text(await mocked)).toBe('answered from the terminal');
    const call = client.callTool({ name: 'echo', arguments: { message: 'straight through' } });
    await answer('what', 'c');
    expect(text(await call)).toBe('Echo: straight through');
    expect(stderr).toContain('"what"? type one of the letters in brackets');
  });
});
