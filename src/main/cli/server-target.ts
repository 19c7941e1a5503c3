// The flags `list` and `invoke` share to reach one interceptor server, and the connect-and-close
// wrapper that turns connection problems into CLI failures that say what to do.
import { InterceptorServerClient } from '../interceptors/client/client';
import type { ConnectionConfig } from '../interceptors/client/connection';
import { CliFailure, UsageError } from './command';
import { ShellSyntaxError, splitCommandLine } from '../../shared/shell/shell-words';

export const serverTargetOptions = {
  'server-command': { type: 'string' },
  'server-url': { type: 'string' },
  header: { type: 'string', multiple: true },
  env: { type: 'string', multiple: true },
  cwd: { type: 'string' },
  'connect-timeout-ms': { type: 'string' },
} as const;

export const serverTargetUsage = `Server (exactly one):
  --server-command "<cmd> <args…>"  spawn a stdio interceptor server (quotes group words)
  --server-url <url>               connect to a Streamable HTTP interceptor server
Server options:
  --header K:V                     HTTP header, repeatable (e.g. "Authorization: Bearer T")
  --env K=V                        environment variable for --server-command, repeatable
  --cwd <dir>                      working directory for --server-command
  --connect-timeout-ms <n>         deadline for the initialize handshake (default 10000)`;

interface TargetValues {
  'server-command'?: string;
  'server-url'?: string;
  header?: string[];
  env?: string[];
  cwd?: string;
  'connect-timeout-ms'?: string;
}

export function connectionFromFlags(v: TargetValues): ConnectionConfig {
  const command = v['server-command'];
  const url = v['server-url'];
  if (command !== undefined && url !== undefined) throw new UsageError('pass either --server-command or --server-url, not both');
  if (command === undefined && url === undefined) {
    throw new UsageError('missing server: pass --server-command "<cmd> <args…>" (stdio) or --server-url <url> (HTTP)');
  }
  if (url !== undefined) {
    if (v.env?.length || v.cwd) throw new UsageError('--env and --cwd only apply to --server-command');
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new UsageError(`--server-url must be a URL such as http://127.0.0.1:3002/mcp, got "${url}"`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new UsageError(`--server-url must use http or https, got "${parsed.protocol}"`);
    }
    return { transport: 'http', url, headers: parseHeaders(v.header ?? []) };
  }
  if (v.header?.length) throw new UsageError('--header only applies to --server-url');
  let words: string[];
  try {
    words = splitCommandLine(command!);
  } catch (err) {
    if (err instanceof ShellSyntaxError) throw new UsageError(`--server-command: ${err.message}`);
    throw err;
  }
  const [cmd, ...args] = words;
  if (!cmd) throw new UsageError('--server-command is empty; pass the command line of a stdio interceptor server');
  return { transport: 'stdio', command: cmd, args, env: parsePairs(v.env ?? [], '=', '--env', 'K=V'), cwd: v.cwd };
}

function parseHeaders(list: string[]): Record<string, string> {
  return parsePairs(list, ':', '--header', 'Name: value');
}

function parsePairs(list: string[], sep: string, flag: string, shape: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list) {
    const at = item.indexOf(sep);
    const key = at > 0 ? item.slice(0, at).trim() : '';
    if (!key) throw new UsageError(`${flag} expects ${shape}, got "${item}"`);
    out[key] = item.slice(at + 1).trim();
  }
  return out;
}

export function connectTimeoutFromFlags(v: TargetValues): number {
  const raw = v['connect-timeout-ms'];
  if (raw === undefined) return 10_000;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--connect-timeout-ms must be a positive integer of ms, got "${raw}"`);
  return n;
}

/** Connects, runs `fn`, always closes (which also stops a spawned stdio server). */
export async function withServerClient<T>(
  connection: ConnectionConfig,
  initializeTimeoutMs: number,
  fn: (client: InterceptorServerClient) => Promise<T>,
): Promise<T> {
  const client = new InterceptorServerClient({ name: serverLabel(connection), connection, initializeTimeoutMs, autoReconnect: false });
  try {
    try {
      await client.connect();
    } catch (err) {
      const hint =
        connection.transport === 'http'
          ? 'check that the server is running at that URL and that --header carries any token it needs'
          : 'check the command line (try running it yourself: it must speak MCP on stdout)';
      throw new CliFailure(`${(err as Error).message}\n  → ${hint}`);
    }
    return await fn(client);
  } finally {
    await client.close();
  }
}

/** A short name for messages: the URL's host:port, or the command line with paths shortened. */
function serverLabel(c: ConnectionConfig): string {
  if (c.transport === 'http') return new URL(c.url).host;
  if (c.transport === 'stdio') {
    const line = [c.command, ...(c.args ?? [])].map((w) => w.split(/[\\/]/).pop() || w).join(' ');
    return line.length > 60 ? `${line.slice(0, 57)}...` : line;
  }
  return c.label ?? 'server';
}
