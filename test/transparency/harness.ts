// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, a devDependency that needs
// Node 22: run with `npx -y node@22`) against a URL and reads back every check's status, and starts the
// pieces it is pointed at: the project's conformance backend (test/conformance/backend.mjs) over HTTP, and
// a gateway (no interceptors) in front of it over HTTP or stdio.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseGatewayConfig } from '../../src/shared/config';
import { Gateway } from '../../src/main/gateway';

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const backendPath = join(root, 'test/conformance/backend.mjs');
const conformanceBin = join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
/** Generous: a first run fetches Node 22 through npx; a fetch that cannot finish fails with a clear message. */
const NODE22_FETCH_MS = 180_000;

export type Requirements = '2025-11-25' | '2026-07-28';
/** `scenario/check-id#n` (n counts repeated ids within a scenario) → status (SUCCESS, FAILURE, WARNING, …). */
export type CheckStatuses = Map<string, string>;

function run(cmd: string, args: string[], timeoutMs: number, cwd: string): Promise<{ code: number | null; out: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, timedOut });
    });
  });
}

let node22: Promise<void> | undefined;
/** Makes sure `npx -y node@22` runs (fetching it once); fails with what to do instead of hanging. */
export function ensureNode22(): Promise<void> {
  node22 ??= run('npx', ['-y', 'node@22', '--version'], NODE22_FETCH_MS, root).then(({ code, out, timedOut }) => {
    if (code === 0 && /^v22\./m.test(out)) return;
    throw new Error(
      `the conformance suite needs Node 22 through "npx -y node@22", which ${timedOut ? `did not finish within ${NODE22_FETCH_MS / 1000}s` : `failed (exit ${code})`}: ` +
        `check that the npm registry is reachable, or run "npx -y node@22 --version" once by hand.\n${out.slice(-2000)}`,
    );
  });
  return node22;
}

/** Runs one requirement set against `url` and returns every check's status. */
export async function runConformance(url: string, requirements: Requirements, timeoutMs = 240_000, scenario?: string): Promise<CheckStatuses> {
  await ensureNode22();
  const outDir = mkdtempSync(join(tmpdir(), `ic-conformance-${requirements}-`));
  // One scenario: the suite refuses --requirements beside --scenario, so the revision goes as --spec-version.
  const which = scenario ? ['--scenario', scenario, '--spec-version', requirements] : ['--requirements', requirements];
  const { out, timedOut } = await run(
    'npx',
    ['-y', 'node@22', conformanceBin, 'server', '--url', url, ...which, '-o', outDir, '--timeout', '20000'],
    timeoutMs,
    outDir,
  );
  if (timedOut) throw new Error(`the conformance suite against ${url} (${requirements}) did not finish within ${timeoutMs / 1000}s:\n${out.slice(-3000)}`);
  const statuses: CheckStatuses = new Map();
  for (const dir of readdirSync(outDir).sort()) {
    const file = join(outDir, dir, 'checks.json');
    if (!existsSync(file)) continue;
    const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T/.exec(dir)?.[1] ?? dir;
    const seen = new Map<string, number>();
    for (const check of JSON.parse(readFileSync(file, 'utf8')) as { id: string; status: string }[]) {
      const n = (seen.get(check.id) ?? 0) + 1;
      seen.set(check.id, n);
      statuses.set(`${scenario}/${check.id}#${n}`, check.status);
    }
  }
  if (statuses.size === 0) throw new Error(`the conformance suite wrote no results for ${url} (${requirements}):\n${out.slice(-3000)}`);
  return statuses;
}

export function tally(statuses: CheckStatuses): { passed: number; failed: number; other: number } {
  let passed = 0;
  let failed = 0;
  let other = 0;
  for (const s of statuses.values()) {
    if (s === 'SUCCESS') passed++;
    else if (s === 'FAILURE') failed++;
    else other++;
  }
  return { passed, failed, other };
}

/** Checks whose status differs between two runs (or that ran in only one), as readable lines. */
export function differences(direct: CheckStatuses, through: CheckStatuses): string[] {
  const keys = new Set([...direct.keys(), ...through.keys()]);
  return [...keys]
    .sort()
    .flatMap((k) => (direct.get(k) === through.get(k) ? [] : [`${k}: direct ${direct.get(k) ?? '(absent)'}, gateway ${through.get(k) ?? '(absent)'}`]));
}

export interface Running {
  url: string;
  stop(): Promise<void>;
}

/** The conformance backend over HTTP on a free loopback port; `args` choose its shapes (e.g. `--framing json-lines`). */
export async function startHttpBackend(args: string[] = []): Promise<Running & { child: ChildProcess }> {
  const child = spawn(process.execPath, [backendPath, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`conformance backend exited with ${code}: ${stderr}`)));
  });
  return {
    url,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A gateway without interceptors, HTTP listener on a free port, in front of `backend` (an HTTP URL, or 'stdio'). */
export async function startGateway(backend: string): Promise<Running & { gateway: Gateway }> {
  const entry =
    backend === 'stdio'
      ? { transport: 'stdio', name: 'conformance', command: process.execPath, arguments: [backendPath, '--stdio'] }
      : { transport: 'http', name: 'conformance', endpoint: backend };
  const parsed = parseGatewayConfig({ backend: entry, listen: { transport: 'http', port: 0 } });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const gateway = new Gateway(parsed.config, { recorder: null, log: () => undefined });
  await gateway.start();
  return { url: gateway.url!, gateway, stop: () => gateway.stop() };
}
