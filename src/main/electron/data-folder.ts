// Which data folder the desktop app uses. It is the one web mode and the CLI use (defaultDataDir), so that a
// gateway, a setting or a history switch made in one is what the others see; the Settings screen says they
// apply alike. Earlier builds of the desktop app kept their data in Electron's userData folder instead
// (~/.config/<app> on Linux), where web mode never looked. Such a folder is not left behind silently: while
// the shared folder has nothing of ours yet, the app keeps using the old one and says how to move it.
// No `electron` import here: main.ts passes the two paths in.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** What only this app writes into a data folder (Electron's own profile files live beside them in userData). */
const OURS = ['settings.json', 'history.db', 'gateways'];

const holdsOurData = (dir: string) => OURS.some((name) => existsSync(join(dir, name)));

export function desktopDataDir(shared: string, electronUserData: string): { dir: string; warning?: string } {
  if (resolve(shared) === resolve(electronUserData) || holdsOurData(shared) || !holdsOurData(electronUserData)) return { dir: shared };
  return {
    dir: electronUserData,
    warning:
      `the desktop app's settings and history are in ${electronUserData}, where earlier versions kept them; web mode and ` +
      `the CLI use ${shared}. Using ${electronUserData} for now. To share one folder, quit the app, move that folder's ` +
      `settings.json, history.db* and gateways/ into ${shared}, and start it again.`,
  };
}
