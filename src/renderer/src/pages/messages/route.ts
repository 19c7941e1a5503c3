// The Messages screen's place in the hash: `#/messages/<gateway>[/<session>]` (`-` for the gateway's own
// messages outside a session, nothing for every session), or `#/messages/<gateway>/execution/<id>` for the
// messages of one execution (Traffic's detail links there), so a view can be linked and the back button
// walks through what was picked.
import { useEffect, useState } from 'react';

export interface MessagesRoute {
  gateway?: string;
  /** undefined: every session; null: the gateway's own messages. */
  session?: string | null;
  /** Only the messages of this execution. */
  execution?: string;
}

export const OWN_SESSION = '-';

function parse(): MessagesRoute {
  const parts = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  if (parts[0] !== 'messages' || !parts[1]) return {};
  if (parts[2] === undefined || parts[2] === '') return { gateway: parts[1] };
  if (parts[2] === 'execution' && parts[3]) return { gateway: parts[1], execution: parts[3] };
  return { gateway: parts[1], session: parts[2] === OWN_SESSION ? null : parts[2] };
}

export function messagesHref(route: MessagesRoute): string {
  if (!route.gateway) return '#/messages';
  const base = `#/messages/${encodeURIComponent(route.gateway)}`;
  if (route.execution) return `${base}/execution/${encodeURIComponent(route.execution)}`;
  if (route.session === undefined) return base;
  return `${base}/${route.session === null ? OWN_SESSION : encodeURIComponent(route.session)}`;
}

export function navigateMessages(route: MessagesRoute): void {
  const href = messagesHref(route);
  if (location.hash !== href) location.hash = href;
}

export function useMessagesRoute(): MessagesRoute {
  const [route, setRoute] = useState(parse);
  useEffect(() => {
    const onChange = () => setRoute(parse());
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
