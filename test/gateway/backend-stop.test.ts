// Stopping a stdio backend ends what it started: the backend is often a wrapper (`sh -c`, a launcher script)
// that dies of SIGTERM while the server it started ignores SIGTERM. The stop used to end at the wrapper's exit,
// and its SIGKILL was never sent: the server lived on, orphaned. Now what is left of the group gets SIGKILL.
import { describe, expect, it } from 'vitest';
import { Backend } from '../../src/main/gateway/backend/backend';
import { alive, waitFor } from './helpers';

describe.skipIf(process.platform === 'win32')('stopping a stdio backend', () => {
  it('kills a wrapped server that ignores SIGTERM once the wrapper has died of it', async () => {
    const lines: string[] = [];
    const server = `${JSON.stringify(process.execPath)} -e 'process.on("SIGTERM", () => process.stderr.write("ignoring SIGTERM\\n")); process.stderr.write("stubborn as " + process.pid + "\\n"); setInterval(() => {}, 1000)'; true`;
    const backend = new Backend({ transport: 'stdio', name: 'wrapped', command: 'sh', arguments: ['-c', server] } as ConstructorParameters<typeof Backend>[0], {
      maxMessageBytes: 1 << 20,
      log: (line) => lines.push(line),
    });
    await backend.connect();
    await waitFor(() => lines.some((l) => /stubborn as \d+/.test(l)), 10_000, 'the wrapped server to start');
    const pid = Number(/stubborn as (\d+)/.exec(lines.join('\n'))![1]);
    const started = Date.now();
    await backend.close();
    // Ended by the time close() resolves (it was asked first, then killed after the grace period).
    expect(alive(pid)).toBe(false);
    expect(lines.join('\n')).toContain('ignoring SIGTERM');
    expect(Date.now() - started).toBeLessThan(8_000);
  });

  it('a backend that ends on SIGTERM is stopped without waiting out the grace period', async () => {
    const backend = new Backend(
      { transport: 'stdio', name: 'plain', command: process.execPath, arguments: ['-e', 'setInterval(() => {}, 1000)'] } as ConstructorParameters<
        typeof Backend
      >[0],
      { maxMessageBytes: 1 << 20 },
    );
    await backend.connect();
    const pid = backend.pid!;
    const started = Date.now();
    await backend.close();
    expect(alive(pid)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});
