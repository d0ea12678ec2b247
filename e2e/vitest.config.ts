import { defineConfig } from 'vitest/config';

// Browser stories: Playwright driving Debian's Chromium against the real built site and server.
export default defineConfig({
  test: {
    root: '.',
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
