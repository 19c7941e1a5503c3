// Types of scripts/electron-sqlite.mjs (plain JavaScript, run by `npm start` and `npm run electron:sqlite`).
export interface ElectronTarget {
  version: string;
  abi: string;
  platform: string;
  arch: string;
  /** native/electron-<abi>/better_sqlite3.node under the checkout. */
  binding: string;
  sqliteDir: string;
}
export function electronTarget(root: string, options?: { electronDir?: string; platform?: string; arch?: string }): ElectronTarget;
export function prebuildArgs(target: ElectronTarget, dir: string): string[];
export function nodeGypArgs(target: ElectronTarget): string[];
export function ensureElectronSqlite(root: string, options?: { log?: (line: string) => void; force?: boolean }): string;
