import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';

export default defineConfig({
  main: { build: { outDir: 'out/main', rollupOptions: { input: resolve('electron/main/index.ts') } } },
  preload: { build: { outDir: 'out/preload', rollupOptions: { input: resolve('electron/preload/index.ts') } } },
  renderer: {
    root: 'renderer',
    build: { outDir: resolve('out/renderer'), rollupOptions: { input: resolve('renderer/index.html') } },
  },
});
