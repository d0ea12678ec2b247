// The desktop build into out/: main (an ES module), preload (a classic CommonJS script: a sandboxed
// renderer cannot load an ES module preload) and the desktop's own renderer bundle (the same React
// app, on Preact like the website: renderer/preact.ts) in out/renderer, served by the app over app://giftlink. Nothing else
// builds it. `--outDir <absolute dir>` moves all three (the browser story builds its own copy).
import { defineConfig } from 'electron-vite';
import { preactCompat } from './renderer/preact';
import type { Plugin } from 'vite';
import { resolve } from 'node:path';

/** The hosted API the app talks to, fixed at build time (https is required at run time when packaged). */
const API_URL = process.env.GIFTLINK_API_URL ?? 'http://localhost:3000';
/** Where https links to the public site come from (deep links); the API serves the site by default. */
const SITE_URL = process.env.GIFTLINK_SITE_URL ?? API_URL;

/**
 * Absolute asset paths: app://giftlink/messages/abc falls back to index.html, whose assets must not
 * resolve under /messages/. electron-vite forces base './' for file:// apps in its own config hook;
 * ours runs after it and puts '/' back (we serve app://giftlink/, not files).
 */
function absoluteBase(): Plugin {
  return { name: 'giftlink:absolute-base', config: (config) => void (config.base = '/') };
}

export default defineConfig({
  main: {
    define: { __GIFTLINK_API_URL__: JSON.stringify(API_URL), __GIFTLINK_SITE_URL__: JSON.stringify(SITE_URL) },
    build: {
      // zod (the IPC contract's schemas) is bundled: the packaged app ships only desktop/package.json's dependencies.
      externalizeDeps: { exclude: ['zod'] },
      rollupOptions: { input: resolve('electron/main/index.ts') },
    },
  },
  preload: {
    build: {
      rollupOptions: { input: resolve('electron/preload/index.ts'), output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: 'renderer',
    plugins: [preactCompat(), absoluteBase()],
    define: { 'import.meta.env.VITE_GIFTLINK_API_URL': JSON.stringify(API_URL) },
    build: {
      emptyOutDir: true,
      target: 'es2022',
      minify: true,
      sourcemap: false,
      rollupOptions: { input: resolve('renderer/index.html') },
    },
  },
});
