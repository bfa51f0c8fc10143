// Entry point: one api (preload or WebSocket), one store fed by it, one React root.
// First: the interface's language is settled before anything renders.
import './i18n/i18n.ts';
import { createRoot } from 'react-dom/client';
import { createApi } from './api/create-api.ts';
import { connectCrawlStore, createCrawlStore } from './store/crawl-store.ts';
import { TrawlProvider } from './store/context.tsx';
import { App } from './components/App.tsx';
import './styles.css';
import { initTheme } from './theme.ts';

// The stored theme goes on <html> before the first render.
initTheme();

const api = createApi();
const store = createCrawlStore();
connectCrawlStore(store, api);

const root = document.getElementById('root');
if (!root) throw new Error('no #root element');
createRoot(root).render(
  <TrawlProvider api={api} store={store}>
    <App />
  </TrawlProvider>,
);
