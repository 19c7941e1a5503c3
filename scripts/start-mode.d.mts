// Types of scripts/start-mode.mjs (plain JavaScript, run by `npm start` before anything is compiled).
import type { ChildProcess } from 'node:child_process';

export const INSTALLER_ENV: 'INTERCEPTOR_CONSOLE_ELECTRON_INSTALLER';
export const SQLITE_SCRIPT_ENV: 'INTERCEPTOR_CONSOLE_ELECTRON_SQLITE_SCRIPT';
export function hasDisplay(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): boolean;
export function electronBinary(electronDir: string, env: NodeJS.ProcessEnv): string | undefined;
export type StartMode = { mode: 'desktop'; binary: string } | { mode: 'web'; reason: string };
export function chooseStartMode(options: {
  root: string;
  electronDir?: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  log?: (line: string) => void;
  onInstallerChild?: (child: ChildProcess) => void;
}): Promise<StartMode>;
