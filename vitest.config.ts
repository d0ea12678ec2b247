import os from 'node:os';
import { defineConfig } from 'vitest/config';

// API and unit tests: real HTTP against a real database (SQLite by default, PostgreSQL when
// DATABASE_URL is set). Each test file starts its own server, data directory and database.
export default defineConfig({
  // The server renders the renderer's views (sharing/pages.tsx) with Preact, as tsconfig.json compiles them.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  test: {
    include: [
      'api/src/**/*.test.ts',
      'api/contract/**/*.test.ts',
      'renderer/src/**/*.test.ts',
      'electron/**/*.test.ts',
      'scripts/*.test.ts',
    ],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker keeps its imported modules from file to file: importing the server once per worker,
    // not once per file, halves the suite. Each file still starts its own server and database.
    isolate: false,
    // One test file per CPU at a time: each file's server and database are its own.
    maxWorkers: os.availableParallelism(),
  },
});
