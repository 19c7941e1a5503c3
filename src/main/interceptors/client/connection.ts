// How to reach an interceptor server: a stdio command, a Streamable HTTP URL, or (tests, in-process
// hosts) a factory that returns an already-built transport. Validated with zod at the boundary.
import type { Transport } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { InterceptorServerEntry } from '../../../shared/config/schema';

export const StdioConnectionSchema = z.object({
  transport: z.literal('stdio'),
  command: z.string().min(1, 'command must be a non-empty string'),
  args: z.array(z.string()).default([]),
  /** Merged over the SDK's safe default environment (PATH, HOME, …). */
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
});

export const HttpConnectionSchema = z.object({
  transport: z.literal('http'),
  url: z.url({ protocol: /^https?$/, message: 'url must be an http(s) URL such as http://127.0.0.1:3002/mcp' }),
  headers: z.record(z.string(), z.string()).optional(),
});

export const ConnectionConfigSchema = z.discriminatedUnion('transport', [StdioConnectionSchema, HttpConnectionSchema]);
export type StdioConnection = z.input<typeof StdioConnectionSchema>;
export type HttpConnection = z.input<typeof HttpConnectionSchema>;

/** For in-memory pairs and embedded hosts: called on every (re)connect, must return a fresh transport. */
export interface CustomConnection {
  transport: 'custom';
  /** Shown in errors and status, e.g. "in-memory". */
  label?: string;
  connect: () => Transport | Promise<Transport>;
}

export type ConnectionConfig = StdioConnection | HttpConnection | CustomConnection;

export function describeConnection(c: ConnectionConfig): string {
  if (c.transport === 'stdio') return [c.command, ...(c.args ?? [])].join(' ');
  if (c.transport === 'http') return c.url;
  return c.label ?? 'custom transport';
}

/** The connection a config entry over a wire describes (a `bundled` entry has none: it is in process). */
export function connectionOfEntry(entry: Exclude<InterceptorServerEntry, { transport: 'bundled' }>): StdioConnection | HttpConnection {
  if (entry.transport === 'stdio') {
    return {
      transport: 'stdio',
      command: entry.command,
      args: entry.arguments,
      ...(entry.env ? { env: entry.env } : {}),
      ...(entry.cwd ? { cwd: entry.cwd } : {}),
    };
  }
  return { transport: 'http', url: entry.endpoint, ...(entry.headers ? { headers: entry.headers } : {}) };
}
