// Keeping a PostgreSQL password out of command lines. A connection string on a command line is seen by
// every local user (`ps`) and is copied into client config files (the "Connect a client" snippets), so
// a launched gateway gets the URL without its password and reads the password from an owner-only file
// (`--db-password-file`), or from `PGPASSWORD`, which the `pg` driver reads when the URL has none.
import { readFileSync } from 'node:fs';

/** The connection string without its password, and the password (from the URL's user info or a `password` parameter). */
export function splitPassword(url: string): { url: string; password: string | undefined } {
  const u = new URL(url.trim());
  let password = u.password ? decodeURIComponent(u.password) : undefined;
  u.password = '';
  const param = u.searchParams.get('password');
  if (param !== null) {
    password ??= param;
    u.searchParams.delete('password');
  }
  return { url: u.toString(), password };
}

/** The connection string with the password read from `file` (its first line); an error says what to fix. */
export function withPasswordFromFile(url: string, file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(
      `cannot read the PostgreSQL password file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message} (give a file holding only the password, readable by this user)`,
    );
  }
  const password = text.split(/\r?\n/)[0] ?? '';
  if (password === '') throw new Error(`the PostgreSQL password file ${file} is empty: its first line is the password`);
  const u = new URL(splitPassword(url).url);
  u.password = encodeURIComponent(password);
  return u.toString();
}
