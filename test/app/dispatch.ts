// Calling the app's procedures in tests as the renderer does, through the validating dispatcher: `call`
// expects success and returns the value, `fails` expects an error and returns it.
import type { AppCore } from '../../src/main/services/app-core';

/** `core` is a getter because suites create the core in beforeAll, after these are bound. */
export function dispatcherCalls(core: () => AppCore) {
  return {
    async call<T = Record<string, unknown>>(name: string, input?: unknown): Promise<T> {
      const r = await core().dispatcher.dispatch(name, input);
      if (!r.ok) throw new Error(`${name}: ${r.error.code}: ${r.error.message}`);
      return r.value as T;
    },
    async fails(name: string, input: unknown): Promise<{ code: string; message: string }> {
      const r = await core().dispatcher.dispatch(name, input);
      if (r.ok) throw new Error(`${name} unexpectedly succeeded`);
      return r.error;
    },
  };
}
