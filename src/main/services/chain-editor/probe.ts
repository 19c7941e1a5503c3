// "Test connection" for the new-gateway wizard: connect to one backend or interceptor-server entry that is
// not part of any gateway yet, look at what it offers, and disconnect. Nothing is kept: a probe that
// leaves a child process behind would be a leak the user never sees.
import { Client, SSEClientTransport, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { ApiError } from '../../../shared/api/envelope';
import type { TestBackendResult, TestServerResult } from '../../../shared/api/models-chain';
import { BackendEntrySchema, formatPath, InterceptorServerEntrySchema, type BackendEntry, type InterceptorServerEntry } from '../../../shared/config';
import { InterceptorServerClient } from '../../interceptors/client';
import type { AppEnvironment } from '../environment';
import { localizeConfig } from '../examples';
import { BUNDLED_TARGET, bundledSamplesTransport } from '../../interceptors/bundled';
import { connectionOfEntry } from '../../interceptors/client/connection';

// Generous: a first `npx`/`uvx` launch or a loaded machine can take a while; the user sees it is connecting.
const PROBE_TIMEOUT_MS = 30_000;
/** How much of a failed backend's stderr the test shows: enough for a whole stack trace. */
const STDERR_TAIL_CHARS = 8192;

function parseEntry<T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } },
  raw: unknown,
  what: string,
): T {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.slice(0, 3).map((i) => `${formatPath(i.path)}: ${i.message}`);
  throw new ApiError('invalid_input', `The ${what} entry is invalid: ${issues.join('; ')}`);
}

/** Runs `interceptor-console` / server-everything commands from this installation, as gateway creation does. */
function localizeEntry<T>(entry: T, key: 'backend' | 'server', env: AppEnvironment): T {
  if (key === 'backend') return localizeConfig({ backend: entry }, env).backend as T;
  return (localizeConfig({ staticInterceptors: [entry] }, env).staticInterceptors as T[])[0]!;
}

function withDeadline<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${PROBE_TIMEOUT_MS / 1000} s`)), PROBE_TIMEOUT_MS);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

export async function probeInterceptorServer(raw: unknown, env: AppEnvironment): Promise<TestServerResult> {
  const entry = localizeEntry(parseEntry<InterceptorServerEntry>(InterceptorServerEntrySchema, raw, 'interceptor server'), 'server', env);
  const t0 = performance.now();
  const client = new InterceptorServerClient({
    name: entry.name,
    autoReconnect: false,
    initializeTimeoutMs: PROBE_TIMEOUT_MS - 5_000,
    connection:
      entry.transport === 'bundled' ? { transport: 'custom', label: BUNDLED_TARGET, connect: () => bundledSamplesTransport() } : connectionOfEntry(entry),
  });
  try {
    const result = await withDeadline(client.discover(), `Interceptor server "${entry.name}"`);
    return { ok: true, interceptors: result.interceptors, skipped: result.skipped, durationMs: performance.now() - t0 };
  } catch (err) {
    return { ok: false, error: errorText(err), interceptors: [], skipped: [], durationMs: performance.now() - t0 };
  } finally {
    await client.close().catch(() => undefined);
  }
}

export async function probeBackend(raw: unknown, env: AppEnvironment): Promise<TestBackendResult> {
  const entry = localizeEntry(parseEntry<BackendEntry>(BackendEntrySchema, raw, 'backend'), 'backend', env);
  const t0 = performance.now();
  let stderr = '';
  const { transport, stderrEnded } = backendTransport(entry, (chunk) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
  });
  const command = entry.transport === 'stdio' ? { command: [entry.command, ...entry.arguments] } : {};
  const client = new Client({ name: 'interceptor-console-probe', version: env.version }, { capabilities: {} });
  try {
    await withDeadline(client.connect(transport), `Backend "${entry.name}"`);
    const tools: string[] = [];
    let toolCount: number | undefined;
    if (client.getServerCapabilities()?.tools) {
      const listed = await withDeadline(client.listTools(), `Backend "${entry.name}" (tools/list)`);
      toolCount = listed.tools.length;
      tools.push(...listed.tools.slice(0, 50).map((t) => t.name));
    }
    const info = client.getServerVersion();
    const version = client.getNegotiatedProtocolVersion();
    return {
      ok: true,
      ...command,
      ...(info ? { serverInfo: info } : {}),
      ...(version ? { protocolVersion: version } : {}),
      ...(toolCount !== undefined ? { tools, toolCount } : {}),
      durationMs: performance.now() - t0,
    };
  } catch (err) {
    // The transport reports the close as soon as stdout ends, while stderr may still hold the reason: wait
    // for its end (bounded, a grandchild may keep it open).
    await Promise.race([stderrEnded, new Promise((r) => setTimeout(r, 2_000).unref())]);
    // The whole tail, not its last lines: a Node stack trace ends with "}" and "Node.js v20…", which alone
    // say nothing (issue #19 item 7). A cut first line is dropped so the tail starts at a line.
    const tail = stderr.length === STDERR_TAIL_CHARS ? stderr.slice(stderr.indexOf('\n') + 1) : stderr;
    return { ok: false, error: errorText(err), ...command, ...(tail.trim() ? { stderr: tail.trimEnd() } : {}), durationMs: performance.now() - t0 };
  } finally {
    await client.close().catch(() => undefined);
  }
}

function backendTransport(entry: BackendEntry, onStderr: (chunk: string) => void): { transport: Transport; stderrEnded: Promise<void> } {
  if (entry.transport === 'stdio') {
    const t = new StdioClientTransport({
      command: entry.command,
      args: entry.arguments,
      env: { ...getDefaultEnvironment(), ...(entry.env ?? {}) },
      ...(entry.cwd ? { cwd: entry.cwd } : {}),
      stderr: 'pipe',
    });
    const stderr = t.stderr;
    stderr?.on('data', (c: Buffer | string) => onStderr(c.toString()));
    const stderrEnded = new Promise<void>((resolve) => {
      if (!stderr) return resolve();
      stderr.once('end', resolve);
      stderr.once('close', resolve);
    });
    return { transport: t, stderrEnded };
  }
  const requestInit = { headers: entry.headers ?? {} };
  const transport =
    entry.transport === 'http'
      ? new StreamableHTTPClientTransport(new URL(entry.endpoint), { requestInit })
      : new SSEClientTransport(new URL(entry.endpoint), { requestInit });
  return { transport, stderrEnded: Promise.resolve() };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
