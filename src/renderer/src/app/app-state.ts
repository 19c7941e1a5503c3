// Choices that belong to the app, not to one screen: the gateway being looked at (one choice shared by
// Chain, Playground with its Client tab, Messages and Paused, remembered across visits and restarts) and
// the built-in client's current connection (its session lives in the core; leaving the Playground does
// not close it, and coming back shows it again, with the server's requests still waiting for an answer).
import { useCallback, useSyncExternalStore } from 'react';
import type { GatewayInfo } from '../../../shared/api/models';

const GATEWAY_KEY = 'interceptor-console.gateway';
const CLIENT_SESSION_KEY = 'interceptor-console.client.session';

type Listener = () => void;
const listeners = new Set<Listener>();

function read(storage: () => Storage, key: string): string | undefined {
  try {
    return storage().getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

function write(storage: () => Storage, key: string, value: string | undefined): void {
  try {
    if (value === undefined) storage().removeItem(key);
    else storage().setItem(key, value);
  } catch {
    // Storage refused (private mode, quota): the choice still holds for this page's life.
  }
}

const state = {
  // Remembered across restarts: a user looks at the same gateway again.
  gateway: read(() => localStorage, GATEWAY_KEY),
  // This tab's connection (a reload finds it again; another tab has its own).
  clientSession: read(() => sessionStorage, CLIENT_SESSION_KEY),
};

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function changed(): void {
  for (const l of [...listeners]) l();
}

export function selectGateway(id: string | undefined): void {
  if (!id || state.gateway === id) return;
  state.gateway = id;
  write(() => localStorage, GATEWAY_KEY, id);
  changed();
}

export function setClientSession(id: string | undefined): void {
  if (state.clientSession === id) return;
  state.clientSession = id;
  write(() => sessionStorage, CLIENT_SESSION_KEY, id);
  changed();
}

export function clientSession(): string | undefined {
  return state.clientSession;
}

/** The app-wide gateway choice (possibly one that no longer exists: see pickGateway) and its setter. */
export function useSelectedGateway(): [string | undefined, (id: string) => void] {
  const id = useSyncExternalStore(subscribe, () => state.gateway);
  return [id, useCallback((next: string) => selectGateway(next), [])];
}

/** The built-in client's current session id and its setter. */
export function useClientSession(): [string | undefined, (id: string | undefined) => void] {
  const id = useSyncExternalStore(subscribe, () => state.clientSession);
  return [id, useCallback((next: string | undefined) => setClientSession(next), [])];
}

/** The gateway to show: the chosen one while it exists, else the first running one, else the first. */
export function pickGateway(list: readonly GatewayInfo[], chosen: string | undefined): GatewayInfo | undefined {
  return list.find((g) => g.id === chosen) ?? list.find((g) => g.status === 'running') ?? list[0];
}
