import { fileURLToPath } from 'node:url';
import type { IncomingMessage } from 'node:http';
import { defineConfig, type ProxyOptions } from 'vite';
import react from '@vitejs/plugin-react';

const API_TARGET = process.env.GIFTLINK_API_URL ?? 'http://localhost:3000';

/**
 * Some API paths share a prefix with pages (for example `/invites/accept/{id}` is both a page
 * and an API call, `/messages/{id}` too). A browser navigation asks for HTML: serve the app
 * for it and proxy only the API's own requests.
 */
function bypassPageLoads(req: IncomingMessage): string | undefined {
  const accept = req.headers.accept ?? '';
  if (req.method === 'GET' && accept.includes('text/html')) return '/index.html';
  return undefined;
}

const apiPrefixes = [
  '/api',
  '/invites',
  '/links',
  '/wishlists',
  '/conversations',
  '/messages',
  '/subscriptions',
  '/statuses',
  '/analytics',
  '/uploads',
  '/healthz',
];

const proxy: Record<string, ProxyOptions> = {
  '/socket.io': { target: API_TARGET, ws: true, changeOrigin: false },
};
for (const prefix of apiPrefixes) {
  proxy[prefix] = { target: API_TARGET, changeOrigin: false, bypass: bypassPageLoads };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [react()],
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    // dist/web/.vite/manifest.json: which chunks a page needs (scripts/first-load.ts).
    manifest: true,
    // One stylesheet, linked from index.html: the server's markup of a shared page is styled before any script runs.
    cssCodeSplit: false,
    target: 'es2022',
  },
});
