import './zod-without-eval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiProvider, createClient } from './api/context';
import { App } from './app/App';
import { preloadPage } from './app/pages';
import { currentRoute } from './app/router';
import { applyTheme, cachedTheme } from './theme/theme';
import { adoptTokenFromUrl, webToken } from './api/web-token';
import './styles.css';

// First of all, before the router reads the address: take web mode's token out of the URL fragment.
adoptTokenFromUrl();
applyTheme(cachedTheme());
// The opening screen's chunk is requested now, while React mounts the shell, not after its first render.
preloadPage(currentRoute());

const queryClient = new QueryClient({
  defaultOptions: {
    // Pushed events drive freshness; no refetch storms on focus.
    queries: { refetchOnWindowFocus: false, staleTime: 10_000, retry: 1 },
  },
});
const root = createRoot(document.getElementById('root')!);
if (!window.interceptorConsole && !webToken()) {
  // Web mode opened without its token (a bookmark, a new tab, or a restarted server): say where it is.
  root.render(
    <main className="token-required">
      <h1>Token required</h1>
      <p>
        Open the URL that <code>interceptor-console web</code> (or <code>npm start</code>) printed: it carries this run&apos;s access token.
      </p>
    </main>,
  );
} else {
  renderApp();
}

function renderApp(): void {
  const client = createClient();
  root.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <ApiProvider client={client} queryClient={queryClient}>
          <App />
        </ApiProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}
