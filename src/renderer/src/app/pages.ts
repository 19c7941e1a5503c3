// Each screen is its own chunk, loaded on first visit: the start of the app parses only the shell and
// the screen it opens on (Traffic's first rows do not wait for React Flow or CodeMirror to be compiled).
// The screen the page opens on is requested before the shell's first render; another screen's chunk is
// requested when the pointer or focus reaches its rail link (not on idle: evaluating the Chain chunk
// would be a long task in the middle of scrolling Traffic).
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { Route } from './router';

type PageModule = Promise<{ default: ComponentType }>;

const LOADERS: Record<Route, () => PageModule> = {
  gateways: () => import('../pages/gateways/GatewaysPage').then((m) => ({ default: m.GatewaysPage })),
  chain: () => import('../pages/chain/ChainPage').then((m) => ({ default: m.ChainPage })),
  playground: () => import('../pages/playground/PlaygroundPage').then((m) => ({ default: m.PlaygroundPage })),
  traffic: () => import('../pages/traffic/TrafficPage').then((m) => ({ default: m.TrafficPage })),
  messages: () => import('../pages/messages/MessagesPage').then((m) => ({ default: m.MessagesPage })),
  paused: () => import('../pages/breakpoints/BreakpointsPage').then((m) => ({ default: m.BreakpointsPage })),
  sinks: () => import('../pages/sinks/SinksPage').then((m) => ({ default: m.SinksPage })),
  tests: () => import('../pages/tests/TestsPage').then((m) => ({ default: m.TestsPage })),
  settings: () => import('../pages/settings/SettingsPage').then((m) => ({ default: m.SettingsPage })),
};

// One promise per screen: preloading and React.lazy share it, so a module is fetched and evaluated once.
const loading = new Map<Route, PageModule>();

export function loadPage(route: Route): PageModule {
  let p = loading.get(route);
  if (!p) {
    p = LOADERS[route]();
    // A failed fetch (server restarted mid-load) may be retried by the next visit.
    p.catch(() => loading.delete(route));
    loading.set(route, p);
  }
  return p;
}

export const PAGES = Object.fromEntries((Object.keys(LOADERS) as Route[]).map((r) => [r, lazy(() => loadPage(r))])) as Record<
  Route,
  LazyExoticComponent<ComponentType>
>;

/** Starts loading a screen's chunk ahead of a likely visit (rail link hovered or focused). */
export function preloadPage(route: Route): void {
  void loadPage(route).catch(() => undefined);
}
