// A host over stdio answers the invokes that arrive together (a phase's validators) in one write: every
// write to a pipe wakes the process at the other end, so four answers written one by one cost four
// wake-ups. Real streams: the host reads a PassThrough and writes a Writable that counts its write calls.
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { InterceptorHost, serveHostOverStdio } from '../../src/main/interceptors/host';
import { coalesceWrites } from '../../src/main/interceptors/coalesce-writes';
import { waitFor } from '../support/wait-for';

/** A stream that logs each write call it gets (a writev counts once, with its chunks). */
function countingStream() {
  const calls: string[][] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      calls.push([chunk.toString()]);
      done();
    },
    writev(chunks, done) {
      calls.push(chunks.map((c) => String(c.chunk)));
      done();
    },
  });
  return { stream, calls, lines: () => calls.flat().join('').split('\n').filter(Boolean) };
}

const line = (m: unknown) => `${JSON.stringify(m)}\n`;

describe('one write per turn on an interceptor connection', () => {
  it('a host answers four invokes read in one chunk with one write, in order', async () => {
    const host = new InterceptorHost();
    for (const name of ['a', 'b', 'c', 'd']) host.registerValidator({ name, events: ['tools/call'], phase: 'request', handler: () => ({ valid: true }) });
    const stdin = new PassThrough();
    const out = countingStream();
    const serving = await serveHostOverStdio(host, { stdin, stdout: out.stream });
    try {
      stdin.write(
        line({
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
        }),
      );
      await waitFor(() => out.lines().length === 1 || undefined, 10_000, 'the initialize answer');
      stdin.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      const before = out.calls.length;
      const invoke = (id: number, name: string) => ({
        jsonrpc: '2.0',
        id,
        method: 'interceptor/invoke',
        params: { name, event: 'tools/call', phase: 'request', payload: { name: 'echo', arguments: {} } },
      });
      stdin.write(['a', 'b', 'c', 'd'].map((n, i) => line(invoke(i + 1, n))).join(''));
      await waitFor(() => out.lines().length === 5 || undefined, 10_000, 'four invoke answers');
      const answers = out
        .lines()
        .slice(1)
        .map((l) => JSON.parse(l) as { id: number; result: { interceptor: string; valid: boolean } });
      expect(answers.map((a) => [a.id, a.result.interceptor, a.result.valid])).toEqual([
        [1, 'a', true],
        [2, 'b', true],
        [3, 'c', true],
        [4, 'd', true],
      ]);
      expect(out.calls.length - before).toBe(1);
    } finally {
      await serving.close();
    }
  });

  it('what is sent in one turn leaves in one write when the turn ends; a later turn writes its own', async () => {
    const out = countingStream();
    const transport = coalesceWrites(
      {
        send: (message: unknown) =>
          new Promise<void>((resolve) => {
            out.stream.write(line(message));
            resolve();
          }),
      },
      () => out.stream,
    );
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    await transport.send({ n: 1 } as never);
    await nextTurn();
    expect(out.lines()).toEqual(['{"n":1}']); // written when its turn ended, not held for a later one
    await transport.send({ n: 2 } as never);
    await transport.send({ n: 3 } as never);
    await nextTurn();
    expect(out.calls.map((c) => c.length)).toEqual([1, 2]);
    expect(out.lines()).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
  });
});
