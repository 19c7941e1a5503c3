// "Authorize in your browser": shown while a connect waits for the user to authorize it at the server's
// authorization server (OAuth, client.authorizations). The link opens in the user's browser, once on its
// own and again on a click: in web mode with window.open, in the desktop app through the window's open
// handler (src/main/electron/security.ts), which hands it to the system browser. The browser comes back to
// the console's loopback callback and the connect completes by itself.
import { useCallback, useEffect, useState } from 'react';
import type { ClientAuthorization } from '../../../../../shared/api/models-client-oauth';
import { useApi } from '../../../api/context';
import { timeOfDay } from '../../../time-format';

/** Authorizations already opened on their own: each opens once (also across visits to this tab); the link stays for another try. */
const opened = new Set<string>();

function openInBrowser(url: string): void {
  // noopener: the authorization server's page gets no handle on the console's window.
  window.open(url, '_blank', 'noopener,noreferrer');
}

export function AuthorizationPrompt() {
  const api = useApi();
  const [waiting, setWaiting] = useState<ClientAuthorization[]>([]);

  const refresh = useCallback(async () => {
    const r = await api.result('client.authorizations');
    if (r.ok) setWaiting(r.value);
  }, [api]);

  useEffect(() => {
    void refresh();
    return api.onEvent((event) => {
      if (event.type === 'client.authorizations') void refresh();
    });
  }, [api, refresh]);

  useEffect(() => {
    for (const a of waiting) {
      if (opened.has(a.authorizationId)) continue;
      opened.add(a.authorizationId);
      openInBrowser(a.authorizationUrl);
    }
  }, [waiting]);

  if (waiting.length === 0) return null;
  return (
    <div className="banner info" role="region" aria-label="Authorize in your browser">
      {waiting.map((a) => (
        <div key={a.authorizationId} className="row">
          <b>Authorize in your browser</b>
          <span className="muted">
            {a.label} asks for authorization (OAuth). Sign in and allow access in the page that opened; the connection completes when the browser comes back.
            Waiting until {timeOfDay(a.expiresAt)}.
          </span>
          <a href={a.authorizationUrl} target="_blank" rel="noopener noreferrer" aria-label="Authorization link">
            Open the authorization page
          </a>
          <button type="button" className="small" onClick={() => void api.result('client.cancelAuthorization', { authorizationId: a.authorizationId })}>
            Cancel
          </button>
        </div>
      ))}
    </div>
  );
}
