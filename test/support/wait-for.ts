// The one way tests wait for something that happens on its own time (a process starting, a record reaching
// the store, a pause appearing): poll `check` until it gives a value that is not false, null or undefined,
// and return that value. At the deadline it fails naming what it waited for and the last thing it saw, so
// a timeout reads as a finding rather than "timed out". No test keeps its own loop of Date.now() + N.

export type Settled<T> = Exclude<T, false | null | undefined>;

/**
 * Polls `check` (sync or async) every `intervalMs` until it returns a value other than false, null or
 * undefined, and returns it. A check that throws fails the wait at once (an assertion inside a check is
 * a finding); a check that may fail while something starts catches that itself and returns undefined.
 */
export async function waitFor<T>(check: () => T | Promise<T>, timeoutMs = 20_000, what = 'condition', intervalMs = 20): Promise<Settled<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== false && value !== null && value !== undefined) return value as Settled<T>;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last value: ${describe(value)})`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

function describe(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text.length > 200 ? `${text.slice(0, 200)}…` : text;
  } catch {
    return String(value);
  }
}
