// Readiness the app says out loud, so that whoever drives it (browser tests, screenshot scripts, a user's
// automation) waits for the app rather than for a guess: `<html data-app-state="loading|ready|error">`,
// and an `interceptor-console:state` event on window whenever it changes. Ready means the console answered
// its first calls (app facts and settings): every screen can then load its own data.
import { useEffect } from 'react';

export type AppState = 'loading' | 'ready' | 'error';

export const APP_STATE_EVENT = 'interceptor-console:state';

export function useAppStateSignal(answered: boolean, error: unknown): void {
  const state: AppState = answered ? 'ready' : error ? 'error' : 'loading';
  useEffect(() => {
    const root = document.documentElement;
    if (root.dataset.appState === state) return;
    root.dataset.appState = state;
    window.dispatchEvent(new CustomEvent(APP_STATE_EVENT, { detail: { state } }));
  }, [state]);
}
