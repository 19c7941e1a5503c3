import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiProvider, createClient } from './api/context';
import { App } from './app/App';
import { preloadPage } from './app/pages';
import { currentRoute } from './app/router';
import { applyTheme, cachedTheme } from './theme/theme';
import './styles.css';

applyTheme(cachedTheme());
// The opening screen's chunk is requested now, while React mounts the shell, not after its first render.
preloadPage(currentRoute());

const queryClient = new QueryClient({
  defaultOptions: {
    // Pushed events drive freshness; no refetch storms on focus.
    queries: { refetchOnWindowFocus: false, staleTime: 10_000, retry: 1 },
  },
});
const client = createClient();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ApiProvider client={client} queryClient={queryClient}>
        <App />
      </ApiProvider>
    </QueryClientProvider>
  </StrictMode>,
);
