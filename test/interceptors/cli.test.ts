// The built CLI end to end: `serve-samples` over stdio and HTTP, reached by `list` and `invoke`
// (also built-CLI processes), exit codes and messages, HTTP Host/Origin/token refusal, clean stops.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait-for';

const cli = fileURLToPath(new URL('../../out/cli/index.js', import.meta.url));
const serveCommand = `"${process.execPath}" "${cli}" serve-samples`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], timeoutMs = 20_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI ${args.join(' ')} timed out; stderr: ${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

function exited(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));
}

async function serveHttp(extra: string[] = []): Promise<{ child: ChildProcessWithoutNullStreams; url: string }> {
  const child = spawn(process.execPath, [cli, 'serve-samples', '--http', '0', ...extra]);
  children.push(child);
  const url = await new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', () => reject(new Error(`serve-samples exited: ${err}`)));
  });
  return { child, url };
}

const emailArgs = [
  '--name',
  'email-redactor',
  '--event',
  'tools/call',
  '--phase',
  'request',
  '--payload',
  '{"name":"send","arguments":{"to":"alice@example.com","body":"hi"}}',
];
const ssnArgs = ['--name', 'pii-validator', '--event', 'tools/call', '--phase', 'request', '--payload', '{"name":"save","arguments":{"ssn":"123-45-6789"}}'];

describe('CLI against serve-samples over stdio', () => {
  it('list prints the samples; --event filters', async () => {
    const all = await run(['list', '--server-command', serveCommand]);
    expect(all.code, all.stderr).toBe(0);
    const names = (JSON.parse(all.stdout) as { interceptors: { name: string }[] }).interceptors.map((d) => d.name);
    expect(names).toEqual([
      'pii-validator',
      'email-redactor',
      'request-logger',
      'secretless-redactor',
      'cross-boundary-guard',
      'tool-allowlist',
      'prompt-injection-heuristic',
    ]);
    const prompts = await run(['list', '--server-command', serveCommand, '--event', 'prompts/get']);
    expect((JSON.parse(prompts.stdout) as { interceptors: { name: string }[] }).interceptors.map((d) => d.name)).toEqual([
      'request-logger',
      'prompt-injection-heuristic',
    ]);
  });

  it('invoke redacts an email (modified:true) and rejects an SSN (valid:false)', async () => {
    const email = await run(['invoke', '--server-command', serveCommand, ...emailArgs]);
    expect(email.code, email.stderr).toBe(0);
    expect(JSON.parse(email.stdout)).toMatchObject({
      interceptor: 'email-redactor',
      type: 'mutation',
      phase: 'request',
      modified: true,
      payload: { name: 'send', arguments: { to: '[EMAIL_REDACTED]', body: 'hi' } },
    });
    const ssn = await run(['invoke', '--server-command', serveCommand, ...ssnArgs]);
    expect(ssn.code, ssn.stderr).toBe(0);
    expect(JSON.parse(ssn.stdout)).toMatchObject({
      interceptor: 'pii-validator',
      valid: false,
      severity: 'error',
      messages: [{ path: '$.arguments', message: 'Payload may contain Social Security Number data', severity: 'error' }],
    });
  });

  it('exit 2 for usage errors naming the flag, exit 1 for failures with code and advice', async () => {
    const missing = await run(['invoke', '--server-command', serveCommand, '--event', 'tools/call', '--phase', 'request', '--payload', '{}']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing --name');
    const badJson = await run(['invoke', '--server-command', serveCommand, ...emailArgs.slice(0, 6), '--payload', '{nope']);
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toContain('--payload must be JSON');
    const noServer = await run(['list']);
    expect(noServer.code).toBe(2);
    expect(noServer.stderr).toContain('--server-command');
    const badQuote = await run(['list', '--server-command', 'node "unclosed']);
    expect(badQuote.code).toBe(2);
    expect(badQuote.stderr).toContain('unterminated double quote');
    const unknown = await run(['invoke', '--server-command', serveCommand, ...emailArgs.slice(2), '--name', 'ghost']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("Interceptor 'ghost' not found");
    expect(unknown.stderr).toContain('-32602');
    expect(unknown.stderr).toContain('interceptor-console list');
    const badConfig = await run([
      'invoke',
      '--server-command',
      serveCommand,
      '--name',
      'tool-allowlist',
      '--event',
      'tools/call',
      '--phase',
      'request',
      '--payload',
      '{"name":"rm"}',
      '--config',
      '{"allow":[1]}',
    ]);
    expect(badConfig.code).toBe(1);
    expect(badConfig.stderr).toContain('config.allow[0] must be string');
    const notAServer = await run(['list', '--server-command', `"${process.execPath}" -e "setInterval(()=>{},1000)"`, '--connect-timeout-ms', '400']);
    expect(notAServer.code).toBe(1);
    expect(notAServer.stderr).toContain('did not answer initialize within 400ms');
    // Eight CLI processes in a row, each starting node (and most a serve-samples): on a loaded 2-core
    // machine that alone can pass the default 30 s.
  }, 120_000);

  it('stdout carries only JSON-RPC, logs go to stderr, and SIGTERM stops it cleanly', async () => {
    const child = spawn(process.execPath, [cli, 'serve-samples']);
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const send = (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'interceptor/invoke',
      params: { name: 'request-logger', event: 'tools/call', phase: 'request', payload: { a: 1 }, context: { traceId: 'abc' } },
    });
    // serve-samples starting on a loaded machine: a generous deadline.
    await waitFor(() => stdout.includes('"id":2'), 30_000, `the answer to id 2 (stdout so far: ${stdout})`, 50);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(JSON.parse(lines[0]!).result.capabilities.extensions['io.modelcontextprotocol/interceptors'].supportedEvents).toContain('*');
    expect(JSON.parse(lines[1]!).result).toMatchObject({ recorded: true, metrics: { payloadBytes: 7 } });
    // request-logger's lines leave after the answers, within its hold (LOG_HOLD_MS): wait for them, not only the answer.
    await waitFor(() => stderr.includes('[request-logger] event=tools/call phase=request traceId=abc bytes=7'), 10_000, `the log line (stderr: ${stderr})`, 10);
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
  });
});

// Each test starts several CLI processes one after another (a second or two each, many more on a loaded
// two-core machine): the default 30 s is too tight for them, not for what they check.
describe('CLI against serve-samples --http', { timeout: 90_000 }, () => {
  it('refuses to serve beyond loopback without --token unless told so explicitly', async () => {
    const refused = await run(['serve-samples', '--http', '0', '--host', '0.0.0.0']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('refusing to serve on 0.0.0.0 without --token');
    const withToken = await serveHttp(['--host', '0.0.0.0', '--token', 'T0k3n']);
    expect(withToken.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/mcp$/);
    const optedIn = await serveHttp(['--host', '0.0.0.0', '--allow-remote-without-token']);
    expect(optedIn.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/mcp$/);
  });

  it('list and invoke over Streamable HTTP with a bearer token; refuses without it', async () => {
    const { child, url } = await serveHttp(['--token', 'T0k3n']);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const auth = ['--server-url', url, '--header', 'Authorization: Bearer T0k3n'];
    const list = await run(['list', ...auth, '--event', 'tools/call']);
    expect(list.code, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { interceptors: unknown[] }).interceptors.length).toBe(7);
    const email = await run(['invoke', ...auth, ...emailArgs]);
    expect(JSON.parse(email.stdout)).toMatchObject({ modified: true, payload: { arguments: { to: '[EMAIL_REDACTED]' } } });
    const ssn = await run(['invoke', ...auth, ...ssnArgs]);
    expect(JSON.parse(ssn.stdout)).toMatchObject({ valid: false, severity: 'error' });
    const noToken = await run(['list', '--server-url', url]);
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toContain('Unauthorized');
    child.kill('SIGINT');
    expect(await exited(child)).toBe(0);
  });

  it('refuses a foreign Origin or Host (DNS rebinding) before any MCP handling', async () => {
    const { url } = await serveHttp();
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const evilOrigin = await fetch(url, { method: 'POST', headers: { ...headers, origin: 'http://evil.example' }, body });
    expect(evilOrigin.status).toBe(403);
    expect(await evilOrigin.text()).toContain('Origin');
    // Another local port is another origin: refused unless --allowed-origin names it.
    const otherPort = await fetch(url, { method: 'POST', headers: { ...headers, origin: 'http://localhost:5173' }, body });
    expect(otherPort.status).toBe(403);
    const ownOrigin = await fetch(url, { method: 'POST', headers: { ...headers, origin: new URL(url).origin }, body });
    expect(ownOrigin.status).toBe(200);
    const allowing = await serveHttp(['--allowed-origin', 'http://localhost:5173']);
    const allowed = await fetch(allowing.url, { method: 'POST', headers: { ...headers, origin: 'http://localhost:5173' }, body });
    expect(allowed.status).toBe(200);
    const u = new URL(url);
    const evilHost = await new Promise<{ status?: number; text: string }>((resolve, reject) => {
      const req = request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { ...headers, host: 'evil.example' } }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode, text }));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(evilHost.status).toBe(403);
    expect(evilHost.text).toContain('Host header');
  });
});
