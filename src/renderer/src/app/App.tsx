// The shell: a left rail of routes and the main pane.
import { Suspense, useEffect, useState } from 'react';
import { useApi, useApiQuery } from '../api/context';
import { applyTheme } from '../theme/theme';
import { Logo, routeIcons } from './icons';
import { ROUTES, useRoute, type Route } from './router';
import { PAGES, preloadPage } from './pages';
import { ShortcutsHelp } from './ShortcutsHelp';
import { PauseNotifier } from './PauseNotifier';
import { useAppStateSignal } from './app-state-signal';

const LABELS: Record<Route, string> = {
  gateways: 'Gateways',
  chain: 'Chain',
  playground: 'Playground',
  traffic: 'Traffic',
  messages: 'Messages',
  paused: 'Paused',
  sinks: 'Sinks',
  tests: 'Tests',
  settings: 'Settings',
};

export function App() {
  const route = useRoute();
  const settings = useApiQuery('settings.get', undefined, ['settings']);
  const info = useApiQuery('app.info', undefined, []);
  const paused = useApiQuery('breakpoints.paused', undefined, ['pauses']);
  const pausedCount = paused.data?.length ?? 0;
  const clientWaiting = useClientWaiting();
  useEffect(() => {
    if (settings.data) applyTheme(settings.data.theme);
  }, [settings.data]);
  useEffect(() => {
    document.title = `${LABELS[route]} · Interceptor Console`;
  }, [route]);
  useAppStateSignal(info.data !== undefined && settings.data !== undefined, info.error ?? settings.error);
  const Page = PAGES[route];
  return (
    <div className="shell">
      <nav className="rail" aria-label="Main">
        <div className="brand">
          <Logo />
          Interceptor Console
        </div>
        {ROUTES.map((r) => (
          <a key={r} href={`#/${r}`} aria-current={r === route ? 'page' : undefined} onPointerEnter={() => preloadPage(r)} onFocus={() => preloadPage(r)}>
            {routeIcons[r]}
            {LABELS[r]}
            {r === 'playground' && clientWaiting > 0 && (
              <span className="rail-badge" aria-label={`${clientWaiting} server request${clientWaiting === 1 ? '' : 's'} waiting`}>
                {clientWaiting}
              </span>
            )}
            {r === 'paused' && pausedCount > 0 && (
              <span className="rail-badge" aria-label={`${pausedCount} paused`}>
                {pausedCount}
              </span>
            )}
          </a>
        ))}
        <div className="spacer" />
        <ShortcutsHelp />
        {info.data && (
          <div className="mode">
            v{info.data.version} · {info.data.mode === 'electron' ? 'desktop' : 'web mode'}
          </div>
        )}
      </nav>
      <PauseNotifier />
      <main className="main">
        <Suspense fallback={<div className="page muted" aria-busy="true" />}>
          <Page />
        </Suspense>
      </main>
    </div>
  );
}

/**
 * The built-in client's server requests (sampling, elicitation) waiting for an answer, in every session:
 * its connections outlive the Playground screen, so the rail says so from any screen (they block the
 * server, and the call that caused them, until answered in the Playground's Client tab).
 */
function useClientWaiting(): number {
  const api = useApi();
  const [count, setCount] = useState(0);
  useEffect(() => {
    let live = true;
    const refresh = () =>
      void api.result('client.pending', {}).then((r) => {
        if (live && r.ok) setCount(r.value.length);
      });
    refresh();
    const off = api.onEvent((e) => {
      if (e.type === 'client.requests') refresh();
    });
    return () => {
      live = false;
      off();
    };
  }, [api]);
  return count;
}
