// The redaction at rest saved in a data folder (Settings → History: redacted paths, in settings.json), for
// the writers that run outside the console: the headless gateway (its "Connect a client" snippets pass the
// console's data folder) and `import`. The console applies the same setting to its own store
// (history-policy.ts), so every writer of a history follows one rule, on SQLite and PostgreSQL alike.
import { createRedactor, type Redactor } from '../history/model/redaction/redactor';
import { readSavedSettings, settingsPath } from './settings';

export class RedactionSettingsError extends Error {
  override name = 'RedactionSettingsError';
}

/** Undefined when nothing is to be redacted; throws RedactionSettingsError, naming the file, when the settings cannot be applied. */
export function savedRedactor(dataDir: string): Redactor | undefined {
  try {
    return createRedactor({ paths: readSavedSettings(dataDir).redactPaths });
  } catch (err) {
    throw new RedactionSettingsError(
      `cannot apply the redaction at rest configured in ${settingsPath(dataDir)}: ${(err as Error).message}. Fix that file (or its redacted paths in the console's Settings)`,
    );
  }
}
