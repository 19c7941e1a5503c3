// What bench/path.ts and bench/path-ab.ts share: a gateway variant's config and command line (server-everything
// over stdio behind it, the bundled samples over stdio or in process), and the CPU its process tree spent, read
// from every thread's /proc schedstat (nanoseconds on a CPU; /proc's stat counts 10 ms ticks, charged to
// whichever thread a tick finds running: a tenth of a relay round's CPU, and a helper thread's short bursts can
// show as nothing).
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, everything } from './gateway';
import { processNs } from './gateway-session';

export function config(options: { samples: boolean | 'bundled'; capture: boolean }, cliPath = cli): string {
  const dir = mkdtempSync(join(tmpdir(), 'ic-bench-path-'));
  const file = join(dir, 'gateway.json');
  writeFileSync(
    file,
    JSON.stringify({
      backend: { transport: 'stdio', name: 'everything', command: process.execPath, arguments: [everything, 'stdio'] },
      // The bundled samples over stdio (`serve-samples`, a child process) or in the gateway's process.
      staticInterceptors:
        options.samples === 'bundled'
          ? [{ transport: 'bundled', name: 'samples' }]
          : options.samples
            ? [{ transport: 'stdio', name: 'samples', command: process.execPath, arguments: [cliPath, 'serve-samples'] }]
            : [],
      // Every bundled sample runs; the allowlist lets every tool through (as in the README's HTTP example).
      overrides: options.samples ? { 'samples/tool-allowlist': { config: { allow: ['*'] } } } : {},
      captureMessages: options.capture,
    }),
  );
  return file;
}

export function gatewayArgs(file: string, record: boolean, cliPath = cli): string[] {
  const db = join(mkdtempSync(join(tmpdir(), 'ic-bench-path-db-')), 'history.db');
  return [cliPath, 'gateway', '--config', file, '--quiet', '--no-watch', ...(record ? ['--db', db] : ['--no-record'])];
}

/** CPU (user + system, ms) of a process tree: the root's main thread, the root's other threads, its descendants. */
export interface CpuSplit {
  main: number;
  threads: number;
  children: number;
}

/**
 * CPU of a process and its descendants, `except` and its descendants (the backend) apart in `left`: the same server
 * doing the same work behind every variant.
 */
export function treeCpuMs(pid: number, except: (cmdline: string) => boolean): CpuSplit & { left: number } {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const subtreeMs = (p: number): number => processNs(p).all / 1e6 + (children.get(p) ?? []).reduce((sum, c) => sum + subtreeMs(c), 0);
  let descendants = 0;
  let left = 0;
  const walk = (p: number) => {
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${p}/cmdline`, 'utf8');
    } catch {
      return;
    }
    if (except(cmdline)) {
      left += subtreeMs(p);
      return;
    }
    descendants += processNs(p).all / 1e6;
    for (const c of children.get(p) ?? []) walk(c);
  };
  for (const c of children.get(pid) ?? []) walk(c);
  const root = processNs(pid);
  return { main: root.main / 1e6, threads: (root.all - root.main) / 1e6, children: descendants, left };
}

/** The tree's CPU without the part left out. */
export const cpuTotal = (c: CpuSplit) => c.main + c.threads + c.children;

export const isBackend = (cmdline: string) => cmdline.includes('server-everything');
