// Connecting to a PostgreSQL history: telling a connection string from a file path, validating it,
// and the pool every reader and writer of one process shares. The password never leaves this file
// in a message: logs and errors name the server by `redactUrl`.
import pg from 'pg';
import { z } from 'zod';

/** `postgres://` or `postgresql://`: the --db value (or INTERCEPTOR_CONSOLE_DB) names a server, not a file. */
export function isPostgresUrl(value: string | undefined): value is string {
  return value !== undefined && /^postgres(ql)?:\/\//i.test(value.trim());
}

const UrlSchema = z
  .string()
  .trim()
  .refine((s) => {
    try {
      const u = new URL(s);
      return /^postgres(ql)?:$/i.test(u.protocol) && u.hostname !== '';
    } catch {
      return false;
    }
  }, 'not a PostgreSQL connection string: use postgres://USER:PASSWORD@HOST:PORT/DATABASE');

/** The connection string with its password (and any password parameter) replaced: for logs and errors. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url.trim());
    if (u.password) u.password = '***';
    for (const key of [...u.searchParams.keys()]) if (/pass/i.test(key)) u.searchParams.set(key, '***');
    return u.toString();
  } catch {
    return 'postgres://<unparseable connection string>';
  }
}

/** A connection failure said in one line, with what to check, never with the password. */
export class PostgresConnectError extends Error {
  override name = 'PostgresConnectError';
}

export function describePgError(err: unknown, url: string): string {
  const e = err as { code?: string; message?: string };
  const where = redactUrl(url);
  if (e.code === 'ECONNREFUSED') return `cannot connect to PostgreSQL at ${where}: connection refused (is the server running and listening there?)`;
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return `cannot connect to PostgreSQL at ${where}: unknown host`;
  if (e.code === '28P01' || e.code === '28000') return `PostgreSQL at ${where} refused the login: check the user and password`;
  if (/client password must be a string/.test(e.message ?? '')) {
    return `PostgreSQL at ${where} asks for a password and none was given: put it in the connection string, in PGPASSWORD, or (gateway) in a --db-password-file`;
  }
  if (e.code === '3D000') return `PostgreSQL at ${where}: the database does not exist (create it: createdb NAME)`;
  return `PostgreSQL at ${where}: ${String(e.message ?? err).replaceAll(url, where)}`;
}

export interface PoolOptions {
  /** Connections kept at most (readers and the recorder share them). Default 4. */
  max?: number;
  /** A query running longer than this is cancelled by the server. Default 60 s. */
  statementTimeoutMs?: number;
}

/**
 * pg leaves the socket open when a login fails on the client's side (the server asks for a password
 * that neither the connection string nor PGPASSWORD gives: "client password must be a string"): the
 * server keeps waiting, and a gateway that reported the failure never exits. Such a client is closed.
 */
class ClosingOnFailedLoginClient extends pg.Client {
  override connect(): Promise<pg.Client>;
  override connect(callback: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): void;
  override connect(callback?: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): Promise<pg.Client> | void {
    const close = () => (this as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    if (!callback) return super.connect().catch((err: unknown) => (close(), Promise.reject(err)));
    const done = callback as (err: Error | null, c?: pg.Client) => void;
    super.connect((err: Error | null) => {
      if (err) close();
      done(err, this);
    });
  }
}

export function createPool(url: string, options: PoolOptions = {}): pg.Pool {
  const parsed = UrlSchema.safeParse(url);
  if (!parsed.success) throw new PostgresConnectError(`${redactUrl(url)}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const pool = new pg.Pool({
    connectionString: parsed.data,
    max: options.max ?? 4,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: options.statementTimeoutMs ?? 60_000,
    application_name: 'interceptor-console',
    Client: ClosingOnFailedLoginClient,
  });
  // An idle connection dropped by the server (restart, failover) must not crash the process: the next
  // query opens a new one, and the recorder retries its batch.
  pool.on('error', () => {});
  // The same, for a connection a reader holds (the text-search page, export, migrations): the query in
  // flight fails with the error and the caller releases the connection, which the pool then drops as not
  // queryable. Unheard, the event would be an uncaught exception (test/store/postgres-dropped-connection).
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** Connects once and runs `SELECT 1`: Settings' "Test connection" and the CLI's first check. */
export async function testConnection(url: string): Promise<{ ok: true; serverVersion: string } | { ok: false; error: string }> {
  let pool: pg.Pool | undefined;
  try {
    pool = createPool(url, { max: 1 });
    const r = await pool.query<{ v: string }>("SELECT current_setting('server_version') AS v");
    return { ok: true, serverVersion: r.rows[0]?.v ?? 'unknown' };
  } catch (err) {
    return { ok: false, error: err instanceof PostgresConnectError ? err.message : describePgError(err, url) };
  } finally {
    await pool?.end().catch(() => {});
  }
}
