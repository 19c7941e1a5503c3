// The app's data folder (gateway configs, settings, history.db, both engines' journals): shared by the desktop
// app, web mode and the headless CLI, which must agree on it without depending on each other.
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/**
 * A base folder from the environment, or undefined when it is unset, empty or relative. The XDG Base
 * Directory spec says to ignore both: a relative XDG_DATA_HOME (or an empty one, which a shell profile can
 * leave behind) once put the history into `./interceptor-console` of whatever folder the console started in.
 */
function absoluteFromEnv(name: string): string | undefined {
  const value = process.env[name];
  return value && isAbsolute(value) ? value : undefined;
}

/** `$INTERCEPTOR_CONSOLE_DATA`, else the platform's per-user data folder + `interceptor-console`. */
export function defaultDataDir(): string {
  if (process.env.INTERCEPTOR_CONSOLE_DATA) return resolve(process.env.INTERCEPTOR_CONSOLE_DATA);
  const base =
    process.platform === 'win32'
      ? (absoluteFromEnv('APPDATA') ?? join(homedir(), 'AppData', 'Roaming'))
      : process.platform === 'darwin'
        ? join(homedir(), 'Library', 'Application Support')
        : (absoluteFromEnv('XDG_DATA_HOME') ?? join(homedir(), '.local', 'share'));
  return join(base, 'interceptor-console');
}
