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

const store = createStore();
const queryClient = createQueryClient();
bindSession(queryClient, store);

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

// A shared link or wishlist page shows the server's own markup until its chunk, the session, the
// page's data and the whole stylesheet (appStylesheet.ts) are here, then renders the page in its
// place: no spinner in between.
void Promise.all([preloadPage(window.location.pathname, queryClient), appStylesheet()]).then(() =>
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <Provider store={store}>
          <App />
        </Provider>
      </QueryClientProvider>
    </StrictMode>,
  ),
);
