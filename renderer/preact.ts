import type { Plugin } from 'vite';

/** What each React entry point is in Preact. */
const COMPAT: Record<string, string> = {
  react: 'preact/compat',
  'react-dom': 'preact/compat',
  'react-dom/client': 'preact/compat/client',
  'react/jsx-runtime': 'preact/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/jsx-dev-runtime',
};

/**
 * The website and the desktop renderer run on Preact through `preact/compat` (React DOM
 * alone was ~60 KB gzip of a visitor's 80 KB first load; Preact with its compat layer is ~11 KB).
 * The code and its types stay React's: `react` and `react-dom` resolve to the compat layer at build
 * time (for our code and for libraries alike), and JSX compiles to Preact's runtime. Used by
 * renderer/vite.config.ts and electron.vite.config.ts. No Fast Refresh in `npm run dev:web`: an
 * edit reloads the page.
 */
export function preactCompat(): Plugin {
  return {
    name: 'giftlink:preact-compat',
    enforce: 'pre',
    config: () => ({
      oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
      resolve: { dedupe: ['preact'] },
      optimizeDeps: { include: ['preact', 'preact/compat', 'preact/hooks', 'preact/jsx-runtime'] },
      build: {
        rollupOptions: {
          // Libraries' "use client" directives mean nothing in a browser bundle (the React plugin hid these
          // too), and React Router only feature-tests `React.use` and `React.useOptimistic`, which compat lacks.
          onwarn(warning, warn) {
            if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
            if (warning.code === 'IMPORT_IS_UNDEFINED' && warning.message.includes('preact/compat')) return;
            warn(warning);
          },
        },
      },
    }),
    async resolveId(source, importer, options) {
      const target = COMPAT[source];
      if (!target) return null;
      return this.resolve(target, importer, { ...options, skipSelf: true });
    },
  };
}
