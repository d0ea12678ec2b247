import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IncomingMessage } from 'node:http';
import { defineConfig, type Plugin, type ProxyOptions } from 'vite';
import { preactCompat } from './preact.ts';
import { sharedPageCss } from './sharedPageCss.ts';

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

/**
 * The built stylesheet goes inside index.html as a <style> (the CSP allows inline styles, not
 * scripts): a shared page's server markup paints styled as soon as the HTML is in, with no
 * render-blocking request in between (LCP on a slow phone). The app's own pages need it
 * before their first render alike, so nothing is left to load later and nothing shifts.
 */
function inlineStylesheet(): Plugin {
  return {
    name: 'giftlink:inline-stylesheet',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        return html.replace(/\s*<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g, (tag, file: string) => {
          const asset = bundle?.[file];
          if (asset?.type !== 'asset') return tag;
          return `\n    <style>${String(asset.source).replaceAll('</style', '<\\/style')}</style>`;
        });
      },
    },
  };
}

/**
 * Each script starts with V8's explicit compile hint (`//# allFunctionsCalledOnLoad`): Chrome then
 * compiles all of its functions while the file streams in, off the main thread, instead of each one
 * on the main thread the first time it is called. A chunk is loaded when its page opens and most of
 * it runs at once, so little is compiled for nothing. Measured on a shared link page with the CPU
 * slowed down 4× (`npm run trace:web`): the time the takeover blocks after the first paint went
 * from a median of 84 ms to 37 ms, and /login painted ~130 ms sooner.
 */
const HINT = '//# allFunctionsCalledOnLoad';

function compileHints(): Plugin {
  return {
    name: 'giftlink:compile-hints',
    apply: 'build',
    enforce: 'post',
    // On the written files: Vite puts its own code at the top of a chunk after every plugin's generateBundle.
    writeBundle(options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== 'chunk' || !options.dir) continue;
        const written = path.join(options.dir, file.fileName);
        fs.writeFileSync(written, `${HINT}\n${fs.readFileSync(written, 'utf8')}`);
      }
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [
    preactCompat(),
    inlineStylesheet(),
    compileHints(),
    // The server's first paint (sharing/pages.tsx) and the views it renders.
    sharedPageCss(
      [
        '../api/src/sharing/pages.tsx',
        './src/components/AuthCardView.tsx',
        './src/components/GiftProgressView.tsx',
        './src/components/Icons.tsx',
        './src/components/Logo.tsx',
        './src/components/Spinner.tsx',
        './src/components/VisitorChrome.tsx',
        './src/pages/home/HomeHero.tsx',
        './src/pages/link/LinkHeroView.tsx',
        './src/pages/login/LoginForm.tsx',
        './src/pages/wishlist/WishlistViews.tsx',
      ].map((file) => fileURLToPath(new URL(file, import.meta.url))),
    ),
  ],
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    // dist/web/.vite/manifest.json: which chunks a page needs (scripts/first-load.ts).
    manifest: true,
    // One stylesheet, inside index.html (inlineStylesheet): the server's markup of a shared page is styled before any script runs.
    cssCodeSplit: false,
    target: 'es2022',
    rollupOptions: {
      output: {
        // The libraries every page runs on, in one file: fewer requests before a page shows (a slow phone pays a round trip each).
        codeSplitting: {
          groups: [
            { name: 'vendor', test: /node_modules[\\/](preact|@tanstack|react-router|react-router-dom|jotai|idb)[\\/]/ },
            // The app every page runs (boot.tsx and what it imports): one file, not a dozen small ones shared with the pages.
            // The two pages a visitor lands on signed out (the feed at `/`, the sign-in page) go with it: no round trip more before they paint.
            { name: 'app', test: /renderer[\\/]src[\\/](boot\.tsx|pages[\\/](LoginPage|HomePage)\.tsx)$/ },
            // What two or more pages share (the wishlist's and the link page's buttons, dialogs, queries), in one file:
            // left to itself it came in eight small chunks, and adding each one's preload to the page cost a slow phone ~10 ms.
            { name: 'shared', test: /renderer[\\/]src[\\/]/, minShareCount: 2 },
          ],
        },
      },
    },
  },
});
