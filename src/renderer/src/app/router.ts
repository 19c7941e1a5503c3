// A hash router: works the same from file:// (Electron) and from web mode, with no server routes.
import { useEffect, useState } from 'react';

export const ROUTES = ['gateways', 'chain', 'playground', 'traffic', 'messages', 'paused', 'sinks', 'tests', 'settings'] as const;
export type Route = (typeof ROUTES)[number];

/** The route named by the address now. */
export function currentRoute(): Route {
  const name = location.hash.replace(/^#\/?/, '').split('/')[0];
  return (ROUTES as readonly string[]).includes(name ?? '') ? (name as Route) : 'gateways';
}

export function useRoute(): Route {
  const [route, setRoute] = useState<Route>(currentRoute);
  useEffect(() => {
    const onChange = () => setRoute(currentRoute());
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
