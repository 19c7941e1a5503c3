// The app's data folder (gateway configs, settings, history.db, both engines' journals): shared by the app, web mode and
// the headless CLI, which must agree on it without depending on each other.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** `$INTERCEPTOR_CONSOLE_DATA`, else the platform's per-user data folder + `interceptor-console`. */
export function defaultDataDir(): string {
  if (process.env.INTERCEPTOR_CONSOLE_DATA) return resolve(process.env.INTERCEPTOR_CONSOLE_DATA);
  const base =
    process.platform === 'win32'
      ? (process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'))
      : process.platform === 'darwin'
        ? join(homedir(), 'Library', 'Application Support')
        : (process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'));
  return join(base, 'interceptor-console');
}
