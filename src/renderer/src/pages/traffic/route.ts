// The Traffic screen's place in the hash: `#/traffic/<executionId>` opens an execution,
// `#/traffic/compare/<a>/<b>` compares two. Links from the Sinks screen and the bulk-replay summary
// use it, and the back button walks through what was opened.
import { useEffect, useState } from 'react';

export type TrafficRoute = { view: 'list'; selected?: string } | { view: 'compare'; a: string; b: string };

function parse(): TrafficRoute {
  const parts = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  if (parts[0] !== 'traffic') return { view: 'list' };
  if (parts[1] === 'compare' && parts[2] && parts[3]) return { view: 'compare', a: parts[2], b: parts[3] };
  return parts[1] ? { view: 'list', selected: parts[1] } : { view: 'list' };
}

export function trafficHref(route: TrafficRoute): string {
  if (route.view === 'compare') return `#/traffic/compare/${encodeURIComponent(route.a)}/${encodeURIComponent(route.b)}`;
  return route.selected ? `#/traffic/${encodeURIComponent(route.selected)}` : '#/traffic';
}

export function navigate(route: TrafficRoute, replace = false): void {
  const href = trafficHref(route);
  if (location.hash === href) return;
  if (replace) history.replaceState(null, '', href);
  else location.hash = href;
  if (replace) window.dispatchEvent(new HashChangeEvent('hashchange'));
}

export function useTrafficRoute(): TrafficRoute {
  const [route, setRoute] = useState(parse);
  useEffect(() => {
    const onChange = () => setRoute(parse());
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
