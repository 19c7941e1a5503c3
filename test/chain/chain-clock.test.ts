// The chain's clock (#26): a run whose interceptors answer at once pays for no abort listener (an
// EventTarget listener costs ~8 µs, two runs per call); the shared "aborted" promise is made on first use,
// and still settles a race as "chain aborted" ahead of a handle's own cancellation, at the deadline or
// when the caller aborts, also when the caller aborted before the run began.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ChainClock } from '../../src/main/interceptors/chain/run';

/** What a handle does with the chain's signal: rejects with its own error when it aborts. */
const handleListening = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error('handle cancelled')), { once: true }));

describe('ChainClock', () => {
  it('adds no abort listener until something races against it', () => {
    const caller = new AbortController();
    const clock = new ChainClock(30_000, caller.signal);
    try {
      expect(getEventListeners(clock.signal, 'abort')).toHaveLength(0);
      void clock.aborted;
      expect(getEventListeners(clock.signal, 'abort')).toHaveLength(0);
    } finally {
      clock.dispose();
    }
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0); // dispose unlinks from the caller
  });

  it('without a deadline, listens on the caller only once something races, and unlinks at dispose', () => {
    const caller = new AbortController();
    const clock = new ChainClock(undefined, caller.signal);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    void clock.aborted;
    void clock.aborted;
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    clock.dispose();
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it('settles a race as "chain aborted" before the handle cancels, when the caller aborts', async () => {
    const caller = new AbortController();
    const clock = new ChainClock(undefined, caller.signal);
    expect(clock.signal).toBe(caller.signal); // no deadline: the caller's own signal, no controller made
    // As invoke-step races: the clock's promise first, then the invocation handed the signal.
    const aborted = clock.aborted;
    const race = Promise.race([aborted, handleListening(clock.signal)]);
    caller.abort(new Error('client cancelled'));
    await expect(race).rejects.toThrow('chain aborted');
    expect(clock.signal.reason).toEqual(new Error('client cancelled'));
    clock.dispose();
  });

  it('at the deadline: the signal aborts, the deadline is marked passed, a race settles as "chain aborted"', async () => {
    const clock = new ChainClock(20);
    const race = Promise.race([handleListening(clock.signal), clock.aborted]); // its own signal: any order
    await expect(race).rejects.toThrow('chain aborted');
    expect(clock.deadline).toEqual({ passed: true, timeoutMs: 20 });
    expect(clock.signal.aborted).toBe(true);
    clock.dispose();
  });

  it('a caller that aborted before the run: aborted at once, and the promise made later is rejected', async () => {
    const caller = new AbortController();
    caller.abort(new Error('gone'));
    const clock = new ChainClock(undefined, caller.signal);
    expect(clock.signal.aborted).toBe(true);
    await expect(clock.aborted).rejects.toThrow('chain aborted');
    clock.dispose();
  });
});
