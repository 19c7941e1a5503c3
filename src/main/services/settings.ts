// Settings persisted as `<dataDir>/settings.json`. A damaged file is set aside, never silently lost.
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { SettingsSchema, type Settings } from '../../shared/api/models';
import type { Logger } from './environment';
import { ApiError } from '../../shared/api/envelope';
import { ensurePrivateDir, makePrivate, writePrivateFileAtomic } from '../files/private-files';

export const DEFAULT_SETTINGS: Settings = {
  theme: 'system',
  retention: { maxExecutions: null, maxAgeDays: null },
  redactPaths: [],
  demoGateway: true,
};

/** Where the settings live in a data folder. */
export function settingsPath(dataDir: string): string {
  return join(dataDir, 'settings.json');
}

/**
 * The saved settings, read without writing anything (for the CLI, which may run beside the app):
 * the defaults when there is no file; an invalid file throws, saying which file.
 */
export function readSavedSettings(dataDir: string): Settings {
  const path = settingsPath(dataDir);
  if (!existsSync(path)) return structuredClone(DEFAULT_SETTINGS);
  try {
    return SettingsSchema.parse({ ...DEFAULT_SETTINGS, ...JSON.parse(readFileSync(path, 'utf8')) });
  } catch (err) {
    throw new Error(`the settings file ${path} is invalid (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
  }
}

export class SettingsStore {
  private current: Settings;
  private readonly path: string;

  /** `check` may refuse a new value before it is saved (e.g. a redaction path the store cannot parse). */
  constructor(
    dataDir: string,
    private readonly logger: Logger,
    private readonly check?: (next: Settings) => void,
  ) {
    ensurePrivateDir(dataDir);
    this.path = settingsPath(dataDir);
    makePrivate(this.path); // written 0644 by an older version
    this.current = this.read();
  }

  get(): Settings {
    return structuredClone(this.current);
  }

  update(patch: Partial<Settings>): Settings {
    const next = SettingsSchema.parse({ ...this.current, ...patch });
    try {
      this.check?.(next);
    } catch (err) {
      throw new ApiError('invalid_input', err instanceof Error ? err.message : String(err));
    }
    writePrivateFileAtomic(this.path, `${JSON.stringify(next, null, 2)}\n`);
    this.current = next;
    return this.get();
  }

  private read(): Settings {
    if (!existsSync(this.path)) return structuredClone(DEFAULT_SETTINGS);
    try {
      return SettingsSchema.parse({ ...DEFAULT_SETTINGS, ...JSON.parse(readFileSync(this.path, 'utf8')) });
    } catch (err) {
      const aside = `${this.path}.invalid-${Date.now()}`;
      this.logger.warn(`settings file ${this.path} is invalid; using defaults, the old file is kept as ${aside}`, err);
      renameSync(this.path, aside);
      return structuredClone(DEFAULT_SETTINGS);
    }
  }
}
