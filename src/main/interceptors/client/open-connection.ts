// One attempt to open a connection to an interceptor server: build the transport (a stdio process whose
// stderr is kept, Streamable HTTP, or a custom one), tap it for message capture, run initialize within a
// deadline and check that the server offers the interceptors extension. Failures come back as errors that
// say where and why (with the end of the server's stderr). What outlives one attempt (status, backoff,
// reconnects, the cached discovery) belongs to InterceptorServerClient in client.ts.
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { INTERCEPTORS_EXTENSION_ID, NOTIFICATION_LIST_CHANGED } from '../../../shared/protocol/constants';
import type { ConnectionConfig } from './connection';
import { ConnectionHealth, type HealthOptions } from './health';
import { withDeadline } from './invoke-wire';
import type { ProcessExit } from './process-exit';
import { InterceptorStdioTransport } from './stdio-transport';
import type { TextTail } from './status';
import { tapTransport, type WireTap } from './wire-tap';

/** One live connection; a new one (a higher generation) replaces it after a reconnect. */
export interface Connection {
  generation: number;
  client: Client;
  transport: Transport;
  /** stdio: the transport, whose lane carries the invokes once the handshake allows (stdio-transport.ts). */
  stdio?: InterceptorStdioTransport;
  health?: ConnectionHealth;
  /** stdio: how the server process exited, once it has. */
  exit?: () => ProcessExit | undefined;
  /** Why the client itself closed this connection (a health restart, a failed HTTP request): not a crash. */
  closedBecause?: string;
  /** Why this connection ended (set when it closes): names a crash in the errors of its pending invokes. */
  endedBecause?: string;
}

/** The client options an attempt reads (a subset of InterceptorServerClientOptions). */
export interface OpenSettings {
  clientInfo?: { name: string; version: string };
  initializeTimeoutMs?: number;
  health?: HealthOptions;
  wire?: WireTap;
  onStderr?: (chunk: string) => void;
}

export interface OpenAttempt {
  generation: number;
  connection: ConnectionConfig;
  /** The connection in words (describeConnection), for error messages. */
  target: string;
  /** The server's stderr so far (stdio): a failed attempt quotes its end. */
  stderr: TextTail;
  settings: OpenSettings;
  /** The server sent notifications/interceptors/list_changed on this connection (A15). */
  onListChanged(): void;
  /** The transport closed (the process exited, the HTTP session ended, or the client closed it). */
  onClosed(): void;
  /** The health checks found this connection dead (see health.ts). */
  onUnhealthy(conn: Connection, reason: string): void;
}

export async function openConnection(attempt: OpenAttempt): Promise<Connection> {
  const { generation, settings } = attempt;
  let transport: Transport;
  try {
    transport = await buildTransport(attempt);
  } catch (err) {
    throw new Error(describeConnectFailure(attempt, err as Error, 0));
  }
  const stdio = transport instanceof InterceptorStdioTransport ? transport : undefined;
  // The stdio transport taps its lane's messages too, so it is told the tap instead of being wrapped.
  if (settings.wire) {
    if (stdio) stdio.useTap(settings.wire);
    else transport = tapTransport(transport, settings.wire);
  }
  const client = new Client(settings.clientInfo ?? { name: 'interceptor-console', version: '0.1.0' }, { capabilities: {} });
  client.setNotificationHandler(NOTIFICATION_LIST_CHANGED, { params: z.unknown() }, () => attempt.onListChanged());
  client.onclose = () => attempt.onClosed();
  const initMs = settings.initializeTimeoutMs ?? 10_000;
  try {
    await withDeadline(client.connect(transport, { timeout: initMs }), initMs + 500);
  } catch (err) {
    await client.close().catch(() => undefined);
    throw new Error(describeConnectFailure(attempt, err as Error, initMs));
  }
  const capability = client.getServerCapabilities()?.extensions?.[INTERCEPTORS_EXTENSION_ID];
  if (!capability) {
    await client.close().catch(() => undefined);
    throw new Error(
      `server at ${attempt.target} does not advertise the interceptors extension ` +
        `(capabilities.extensions["${INTERCEPTORS_EXTENSION_ID}"]); is it an interceptor server?`,
    );
  }
  const conn: Connection = { generation, client, transport, ...(stdio ? { stdio, exit: () => stdio.exit() } : {}) };
  conn.health = new ConnectionHealth(
    settings.health ?? {},
    (timeout) => client.ping({ timeout }),
    (reason) => attempt.onUnhealthy(conn, reason),
  );
  return conn;
}

async function buildTransport(attempt: OpenAttempt): Promise<Transport> {
  const c = attempt.connection;
  if (c.transport === 'custom') return c.connect();
  if (c.transport === 'http') {
    return new StreamableHTTPClientTransport(new URL(c.url), { requestInit: { headers: c.headers ?? {} } });
  }
  const transport = new InterceptorStdioTransport({ command: c.command, args: c.args ?? [], env: c.env, cwd: c.cwd });
  transport.stderr.on('data', (chunk: Buffer | string) => {
    const text = chunk.toString();
    attempt.stderr.push(text);
    attempt.settings.onStderr?.(text);
  });
  return transport;
}

function describeConnectFailure(attempt: OpenAttempt, err: Error, initMs: number): string {
  const msg = err.message ?? String(err);
  const timedOut = initMs > 0 && /timed? ?out|REQUEST_TIMEOUT|deadline/i.test(msg);
  const base = timedOut
    ? `server at ${attempt.target} did not answer initialize within ${initMs}ms`
    : `could not connect to server at ${attempt.target}: ${msg}`;
  const tail = attempt.stderr.value()?.trim();
  return tail ? `${base}; its stderr ends with: ${tail.split('\n').slice(-3).join(' | ')}` : base;
}
