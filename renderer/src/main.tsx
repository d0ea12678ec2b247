import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider, createStore } from 'jotai';
import { QueryClientProvider } from '@tanstack/react-query';
import './styles/base.css';
import './styles/controls.css';
import './styles/app.css';
import { App } from './App';
import { createQueryClient } from './api/queryClient';
import { bindSession } from './state/session';

const store = createStore();
const queryClient = createQueryClient();
bindSession(queryClient, store);

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <Provider store={store}>
        <App />
      </Provider>
    </QueryClientProvider>
  </StrictMode>,
);
