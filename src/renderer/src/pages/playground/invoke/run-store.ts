// The Invoke tab's run history, kept outside the component so that it survives leaving the Playground
// and coming back (the page unmounts on navigation). Per gateway, for the life of the page (session):
// nothing is persisted, since runs hold payloads the user typed.
import { useCallback, useSyncExternalStore } from 'react';
import type { InvokeRun } from './RunHistory';

const runsByGateway = new Map<string, InvokeRun[]>();
const listeners = new Set<() => void>();
const EMPTY: InvokeRun[] = [];

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Adds a run (newest first) and returns it with its number, 1 + the gateway's previous count. */
export function addRun(gatewayId: string, run: Omit<InvokeRun, 'n'>): InvokeRun {
  const previous = runsByGateway.get(gatewayId) ?? EMPTY;
  const next: InvokeRun = { ...run, n: previous.length + 1 };
  runsByGateway.set(gatewayId, [next, ...previous]);
  for (const l of listeners) l();
  return next;
}

export function useRuns(gatewayId: string): InvokeRun[] {
  const get = useCallback(() => runsByGateway.get(gatewayId) ?? EMPTY, [gatewayId]);
  return useSyncExternalStore(subscribe, get);
}
