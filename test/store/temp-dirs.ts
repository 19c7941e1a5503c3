// Temporary folders for store tests that open several files per test. Kept apart from fixtures.ts, which
// also runs outside vitest (helpers/write-executions.ts in a child process) and so must not import it.
import { afterEach } from 'vitest';
import { tempDir } from './fixtures';

/** Call at a test file's top level: returns a maker of fresh folders, all removed after each test. */
export function tempDirsRemovedAfterEach(): () => string {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((c) => c()));
  return () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    return t.dir;
  };
}
