// Issue 15: a `serve-samples` started over stdio by a gateway must not outlive it, even with heavy
// work in flight: it honours SIGTERM and exits when its stdin closes (what a SIGKILLed parent leaves
// behind). The work is 1 MB of letters for email-redactor, which used to pin the process for minutes.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { alive, cliPath, descendants, everythingBackend, gatewayArgs, LineClient, waitFor, writeConfig } from '../gateway/helpers';

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

function line(message: Record<string, unknown>): string {
  return `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;
}

/** A serve-samples process, initialized, with `email-redactor` working on 1 MB and a request-logger call behind it. */
async function busyServeSamples(): Promise<{ child: ChildProcessWithoutNullStreams; exited: Promise<{ code: number | null; signal: string | null }> }> {
  const child = spawn(process.execPath, [cliPath, 'serve-samples'], { stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
  child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
  const until = (what: string, test: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; stderr: ${stderr.slice(-300)}`)), 25_000);
      const check = () => {
        if (!test()) return;
        clearTimeout(timer);
        child.stdout.off('data', check);
        child.stderr.off('data', check);
        resolve();
      };
      child.stdout.on('data', check);
      child.stderr.on('data', check);
      check();
    });
  child.stdin.write(
    line({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
  );
  await until('initialize', () => stdout.includes('"id":1'));
  child.stdin.write(line({ method: 'notifications/initialized' }));
  const payload = { name: 'send', arguments: { body: 'a'.repeat(1024 * 1024) } };
  // The logger call is read after the heavy one: its log line says the heavy one was dispatched.
  child.stdin.write(
    line({ id: 2, method: 'interceptor/invoke', params: { name: 'email-redactor', event: 'tools/call', phase: 'request', payload } }) +
      line({
        id: 3,
        method: 'interceptor/invoke',
        params: { name: 'request-logger', event: 'tools/call', phase: 'request', payload: {}, context: { traceId: 'marker' } },
      }),
  );
  await until('the request-logger line', () => stderr.includes('traceId=marker'));
  return { child, exited };
}

describe('serve-samples over stdio does not outlive its parent', { timeout: 60_000 }, () => {
  it('exits on SIGTERM with work in flight', async () => {
    const { child, exited } = await busyServeSamples();
    child.kill('SIGTERM');
    expect(await exited).toMatchObject({ code: 0 });
  });

  it('exits when its stdin closes (the parent is gone) with work in flight', async () => {
    const { child, exited } = await busyServeSamples();
    child.stdin.end();
    expect(await exited).toMatchObject({ code: 0 });
  });
});

describe('serve-samples under a gateway that is SIGKILLed', { timeout: 90_000 }, () => {
  it('exits once it is at work on a 1 MB call and its gateway is gone', async () => {
    const config = writeConfig({
      backend: everythingBackend,
      staticInterceptors: [{ transport: 'stdio', name: 'samples', command: process.execPath, arguments: [cliPath, 'serve-samples'] }],
      overrides: { 'samples/tool-allowlist': { config: { allow: ['*'] } } },
    });
    const gateway = new LineClient(gatewayArgs(config));
    children.push(gateway.child);
    await gateway.initialize();
    await gateway.request(1, 'tools/call', { name: 'echo', arguments: { message: 'warm' } });
    const samples = descendants(gateway.child.pid!).find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('serve-samples'));
    expect(samples).toBeTypeOf('number');
    const readBytes = () => Number(/rchar: (\d+)/.exec(readFileSync(`/proc/${samples}/io`, 'utf8'))?.[1] ?? 0);
    const before = readBytes();
    gateway.send({ id: 2, method: 'tools/call', params: { name: 'echo', arguments: { message: 'a'.repeat(1024 * 1024) } } });
    // The mutators run one after the other: secretless-redactor's invoke is the first 1 MB read, then
    // email-redactor's (the pattern that used to take minutes). Once both are read, the gateway dies.
    await waitFor(() => readBytes() - before > 2 * 1024 * 1024, 30_000, 'serve-samples to read the second 1 MB invoke');
    gateway.child.kill('SIGKILL');
    await waitFor(() => !alive(samples!), 30_000, 'serve-samples to exit after its gateway was SIGKILLed');
  });
});
