// `npm run invite`: prints a new invite URL.
import '../node-guard.js';
import { pathToFileURL } from 'node:url';
import { ConfigError, environment, loadConfig } from '../config.js';
import { openServerDatabase } from '../db/instance.js';
import { schema } from '../schema.js';
import { createSystemInvite, inviteUrl } from './service.js';

/**
 * Makes a new invite and prints its URL under the configured public URL: `PUBLIC_URL`, else
 * `http://localhost:$PORT` (config.ts), the same base the server's own invite and share URLs use,
 * in the running server's database (db/instance.ts: it refuses another one). Returns the URL printed.
 */
export async function printNewInvite(
  env: Record<string, string | undefined> = environment(),
  print: (line: string) => void = (line) => console.log(line),
  warn: (line: string) => void = (line) => console.error(line),
): Promise<string> {
  const config = loadConfig(env);
  const db = await openServerDatabase(config, schema, warn);
  try {
    const url = inviteUrl(config, (await createSystemInvite(db)).code);
    print(url);
    return url;
  } finally {
    await db.close();
  }
}

// Run as a script (not when a test imports it).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    await printNewInvite();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    process.exitCode = 1;
  }
}
