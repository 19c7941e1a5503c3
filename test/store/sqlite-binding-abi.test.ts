// openDatabase against a stand-in better-sqlite3 (src/main/native/sqlite-binding.ts): the options given to
// the Database constructor carry `nativeBinding` from INTERCEPTOR_CONSOLE_SQLITE_BINDING, and Node's loader
// error for an addon of another ABI (what Electron's copy gives under Node, and Node's build under Electron)
// becomes one sentence with both ABIs and what to run.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../app/helpers';

const constructed: { file: string; options: Record<string, unknown> }[] = [];
let failWith: Error | undefined;

vi.mock('better-sqlite3', () => ({
  default: class {
    constructor(file: string, options: Record<string, unknown>) {
      constructed.push({ file, options });
      if (failWith) throw failWith;
    }
  },
}));

const { openDatabase, SQLITE_BINDING_ENV } = await import('../../src/main/native/sqlite-binding');

const t = tempDir('ic-sqlite-abi-');
const addon = join(t.dir, 'better_sqlite3.node');
writeFileSync(addon, 'stand-in');
afterAll(() => t.cleanup());
afterEach(() => {
  constructed.length = 0;
  failWith = undefined;
});

describe('openDatabase', () => {
  it('passes the named addon to the Database constructor as nativeBinding, with the caller’s options', () => {
    openDatabase('/data/history.db', { readonly: true, fileMustExist: true }, { [SQLITE_BINDING_ENV]: addon });
    expect(constructed).toEqual([{ file: '/data/history.db', options: { readonly: true, fileMustExist: true, nativeBinding: addon } }]);
    openDatabase('/data/history.db', {}, {});
    expect(constructed[1]!.options).toEqual({});
  });

  it('an addon of another ABI: one sentence with both ABIs and what to run', () => {
    failWith = Object.assign(
      new Error(
        `The module '${addon}'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 150. This version of Node.js requires\nNODE_MODULE_VERSION ${process.versions.modules}. Please try re-compiling or re-installing\nthe module (for instance, using \`npm rebuild\` or \`npm install\`).`,
      ),
      { code: 'ERR_DLOPEN_FAILED' },
    );
    expect(() => openDatabase('/data/history.db', {}, { [SQLITE_BINDING_ENV]: addon })).toThrow(
      `the better-sqlite3 addon ${addon} cannot be loaded in Node ${process.versions.node} (ABI ${process.versions.modules}): it was built for another runtime (ABI 150). Run \`npm rebuild better-sqlite3\`, or unset ${SQLITE_BINDING_ENV}.`,
    );
  });

  it('other errors (a locked or missing database file) pass through unchanged', () => {
    failWith = Object.assign(new Error('unable to open database file'), { code: 'SQLITE_CANTOPEN' });
    expect(() => openDatabase('/data/history.db', {}, {})).toThrow(failWith);
  });
});
