// A hash router: works the same from file:// (Electron) and from web mode, with no server routes.
import { useEffect, useState } from 'react';

export const ROUTES = ['gateways', 'chain', 'playground', 'traffic', 'sinks', 'settings'] as const;
export type Route = (typeof ROUTES)[number];

function current(): Route {
  const name = location.hash.replace(/^#\/?/, '').split('/')[0];
  return (ROUTES as readonly string[]).includes(name ?? '') ? (name as Route) : 'gateways';
}

export function useRoute(): Route {
  const [route, setRoute] = useState<Route>(current);
  useEffect(() => {
    const onChange = () => setRoute(current());
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
