import { createRoot } from 'react-dom/client';

function App() {
  return <h1>Interceptor Console</h1>;
}

createRoot(document.getElementById('root')!).render(<App />);
