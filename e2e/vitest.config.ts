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
    // In CI the stories share 2 cores with two API suites: a story that times out once is run again.
    retry: 1,
    // A page that waits on the server under load takes more than vitest's default second to settle.
    expect: { poll: { timeout: 15_000, interval: 100 } },
  },
});
