// A gateway bound beyond loopback ([path-fidelity] item 9), run as the real CLI with a real backend and
// reached over this machine's own non-loopback address, from that address (so the gateway's socket sees a
// remote peer, as it would for another machine):
// - `listen.host: "0.0.0.0"` without tokens is refused at start, unless `listen.allowRemoteWithoutToken`
//   says so, and then the log warns;
// - a remote peer sending `Host: localhost` is not taken for this machine (403), with or without tokens;
//   naming the listener by a configured host name works, and local clients keep working.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { cliPath, rawBackend, waitFor, writeConfig } from '../gateway/helpers';

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'open-bind', version: '1' } },
});

/** This machine's first non-loopback IPv4 address: a connection from it is a remote peer to the gateway. */
const remoteIp = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

interface Started {
  child: ChildProcess;
  stderr: () => string;
  exit: () => number | null | undefined;
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
});

function startGateway(listen: Record<string, unknown>, extraArgs: string[] = []): Started {
  const config = writeConfig({ backend: rawBackend(), listen: { transport: 'http', port: 0, ...listen } });
  const child = spawn(process.execPath, [cliPath, 'gateway', '--config', config, '--no-record', '--no-watch', ...extraArgs], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  let code: number | null | undefined;
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (t: string) => (stderr += t));
  child.on('exit', (c) => (code = c));
  return { child, stderr: () => stderr, exit: () => code };
}

/** Waits until the gateway listens (its port) or exits (undefined). */
async function listeningPort(g: Started): Promise<number | undefined> {
  await waitFor(() => /listening on http:\/\/[^:]+:\d+/.test(g.stderr()) || g.exit() !== undefined, 20_000, 'the gateway to listen or exit');
  const m = /listening on http:\/\/[^:]+:(\d+)/.exec(g.stderr());
  return m ? Number(m[1]) : undefined;
}

/** POST initialize to `to`:port from `from`, with this Host header; the HTTP status. */
function post(to: string, from: string, port: number, host: string, token?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (token) headers.authorization = `Bearer ${token}`;
    const req = request({ host: to, localAddress: from, port, path: '/mcp', method: 'POST', headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(INIT);
  });
}

describe('a non-loopback bind without a token', () => {
  it('opted in with --quiet: the warning is still printed (--quiet keeps security warnings)', async () => {
    const g = startGateway({ host: '0.0.0.0', allowRemoteWithoutToken: true }, ['--quiet']);
    await waitFor(
      () => /warning: listen\.host "0\.0\.0\.0" without listen\.tokens/.test(g.stderr()) || g.exit() !== undefined,
      20_000,
      'the warning or an exit',
    );
    expect(g.stderr()).toMatch(/warning: listen\.host "0\.0\.0\.0" without listen\.tokens/);
  }, 30_000);

  it('is refused at start, saying how to opt in', async () => {
    const g = startGateway({ host: '0.0.0.0' });
    const port = await listeningPort(g);
    expect(port, `the gateway listened: ${g.stderr()}`).toBeUndefined();
    await waitFor(() => g.exit() !== undefined, 10_000, 'exit');
    expect(g.exit()).toBe(1);
    expect(g.stderr()).toMatch(/refusing to listen on 0\.0\.0\.0:0 without a token/);
    expect(g.stderr()).toMatch(/listen\.tokens/);
    expect(g.stderr()).toMatch(/listen\.allowRemoteWithoutToken: true/);
  }, 30_000);

  it('a loopback bind without a token starts without a warning', async () => {
    const g = startGateway({ host: '127.0.0.1' });
    expect(await listeningPort(g)).toBeGreaterThan(0);
    expect(g.stderr()).not.toMatch(/warning/);
  }, 30_000);
});

describe.runIf(remoteIp !== undefined)(`a gateway bound to 0.0.0.0, reached from ${remoteIp ?? '(no non-loopback address)'}`, () => {
  it('starts when opted in, warns, and takes a remote Host: localhost for what it is', async () => {
    const ip = remoteIp!;
    const g = startGateway({ host: '0.0.0.0', allowRemoteWithoutToken: true, allowedHosts: [ip] });
    const port = await listeningPort(g);
    expect(port, g.stderr()).toBeGreaterThan(0);
    expect(g.stderr()).toMatch(/warning: listen\.host "0\.0\.0\.0" without listen\.tokens/);
    // A remote peer claiming to be this machine.
    expect(await post(ip, ip, port!, `localhost:${port}`)).toBe(403);
    expect(await post(ip, ip, port!, `127.0.0.1:${port}`)).toBe(403);
    // A remote peer naming the listener by its configured name, and a local client: served.
    expect(await post(ip, ip, port!, `${ip}:${port}`)).toBe(200);
    expect(await post('127.0.0.1', '127.0.0.1', port!, `localhost:${port}`)).toBe(200);
  }, 30_000);

  it('with tokens: starts without a warning, and a remote Host: localhost is still not local', async () => {
    const ip = remoteIp!;
    const g = startGateway({ host: '0.0.0.0', tokens: { 'open-bind-test-token': 'alice' } });
    const port = await listeningPort(g);
    expect(port, g.stderr()).toBeGreaterThan(0);
    expect(g.stderr()).not.toMatch(/warning/);
    expect(await post(ip, ip, port!, `localhost:${port}`, 'open-bind-test-token')).toBe(403);
    expect(await post('127.0.0.1', '127.0.0.1', port!, `localhost:${port}`, 'open-bind-test-token')).toBe(200);
  }, 30_000);
});
