import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider, createStore } from 'jotai';
import { QueryClientProvider } from '@tanstack/react-query';
import './styles/base.css';
import './styles/controls.css';
import './styles/app.css';
import { App, preloadPage } from './App';
import { appStylesheet } from './appStylesheet';
import { createQueryClient } from './api/queryClient';
import { bindSession } from './state/session';
import { nextTask, takeOver } from './takeover';

const store = createStore();
const queryClient = createQueryClient();
bindSession(queryClient, store);

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

const app = (
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <Provider store={store}>
        <App />
      </Provider>
    </QueryClientProvider>
  </StrictMode>
);

// A page the server sent with its own markup (a link or wishlist page, a visitor's home) shows it
// until its chunk, the session, the page's data and the whole stylesheet (appStylesheet.ts) are
// here; then the app takes its place (takeover.ts): no spinner in between. Each step is a task of
// its own: the modules' evaluation, the page's reads, and the renders.
async function start(container: HTMLElement): Promise<void> {
  const marked = container.hasChildNodes();
  await nextTask();
  await Promise.all([preloadPage(window.location.pathname, queryClient, marked), appStylesheet()]);
  if (!marked) return createRoot(container).render(app);
  await nextTask();
  await takeOver(container, (into) => createRoot(into).render(app));
}

// Then the service worker's module, in a chunk of its own: it registers once the page has loaded.
void start(root).then(() => import('./serviceWorker'));
