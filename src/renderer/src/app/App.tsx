// The shell: a left rail of routes and the main pane.
import { useEffect } from 'react';
import { useApiQuery } from '../api/context';
import { applyTheme } from '../theme/theme';
import { Logo, routeIcons } from './icons';
import { ROUTES, useRoute, type Route } from './router';
import { GatewaysPage } from '../pages/gateways/GatewaysPage';
import { ChainPage } from '../pages/chain/ChainPage';
import { PlaygroundPage } from '../pages/playground/PlaygroundPage';
import { TrafficPage } from '../pages/traffic/TrafficPage';
import { SinksPage } from '../pages/sinks/SinksPage';
import { SettingsPage } from '../pages/settings/SettingsPage';

const LABELS: Record<Route, string> = {
  gateways: 'Gateways',
  chain: 'Chain',
  playground: 'Playground',
  traffic: 'Traffic',
  sinks: 'Sinks',
  settings: 'Settings',
};

const PAGES: Record<Route, React.ComponentType> = {
  gateways: GatewaysPage,
  chain: ChainPage,
  playground: PlaygroundPage,
  traffic: TrafficPage,
  sinks: SinksPage,
  settings: SettingsPage,
};

export function App() {
  const route = useRoute();
  const settings = useApiQuery('settings.get', undefined, ['settings']);
  const info = useApiQuery('app.info', undefined, []);
  useEffect(() => {
    if (settings.data) applyTheme(settings.data.theme);
  }, [settings.data]);
  useEffect(() => {
    document.title = `${LABELS[route]} · Interceptor Console`;
  }, [route]);
  const Page = PAGES[route];
  return (
    <div className="shell">
      <nav className="rail" aria-label="Main">
        <div className="brand">
          <Logo />
          Interceptor Console
        </div>
        {ROUTES.map((r) => (
          <a key={r} href={`#/${r}`} aria-current={r === route ? 'page' : undefined}>
            {routeIcons[r]}
            {LABELS[r]}
          </a>
        ))}
        <div className="spacer" />
        {info.data && (
          <div className="mode">
            v{info.data.version} · {info.data.mode === 'electron' ? 'desktop' : 'web mode'}
          </div>
        )}
      </nav>
      <main className="main">
        <Page />
      </main>
    </div>
  );
}
