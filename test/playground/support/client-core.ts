// The app core the built-in client's suites talk to: real ports on a temporary data directory, started
// without the demo gateway in beforeAll and shut down (then the directory removed) in afterAll. Calls go
// through the validating dispatcher as the renderer makes them.
import { afterAll, beforeAll } from 'vitest';
import { buildEnvironment, realPorts } from '../../../src/main/services/bootstrap';
import { createAppCore, type AppCore } from '../../../src/main/services/app-core';
import { silentLogger } from '../../../src/main/services/environment';
import { dispatcherCalls } from '../../app/dispatch';
import { repoRoot, tempDir } from '../../app/helpers';

/**
 * Registers the suite's beforeAll/afterAll for a started core on a fresh `ic-…` temp directory named by
 * `prefix`. `core()` is a getter: the core exists only once beforeAll has run. A suite's own beforeAll
 * registered after this call runs after the core has started; its own afterAll registered after this call
 * runs before the core shuts down (vitest runs after-hooks in reverse order).
 */
export function useClientCore(prefix: string) {
  let core: AppCore | undefined;
  let cleanup: (() => void) | undefined;
  const current = (): AppCore => {
    if (!core) throw new Error('the core is not started yet: use it inside a test or a later beforeAll');
    return core;
  };

  beforeAll(async () => {
    const t = tempDir(prefix);
    cleanup = t.cleanup;
    const env = buildEnvironment({ mode: 'test', packageRoot: repoRoot, dataDir: t.dir, logger: silentLogger });
    core = createAppCore(env, await realPorts(env));
    await core.start({ demo: false });
  }, 60_000);

  afterAll(async () => {
    await core?.shutdown();
    cleanup?.();
  });

  return { core: current, ...dispatcherCalls(current) };
}
