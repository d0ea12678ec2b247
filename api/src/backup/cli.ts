// `npm run backup` and `npm run restore -- <path>`.
import '../node-guard.js';
import { pathToFileURL } from 'node:url';
import { ConfigError, environment, loadConfig } from '../config.js';
import { schema } from '../schema.js';
import { createBackup, restoreBackup } from './backup.js';

const USAGE = 'usage: npm run backup [-- --out <dir>] | npm run restore -- <backup directory>';

/**
 * Runs `backup [--out <dir>]` or `restore <dir>` on the configuration the server reads (.env and
 * the environment). A backup's path is the last line printed. Answers the exit code: 1 when a
 * check fails or the target is not empty, saying why.
 */
export async function runBackupCommand(
  args: string[],
  env: Record<string, string | undefined> = environment(),
  print: (line: string) => void = (line) => console.log(line),
  warn: (line: string) => void = (line) => console.error(line),
): Promise<number> {
  const [command, ...rest] = args;
  try {
    const config = loadConfig(env);
    if (command === 'backup' && (rest.length === 0 || (rest.length === 2 && rest[0] === '--out'))) {
      const dir = await createBackup(config, schema, rest[1], warn);
      print(`Backup written and checked (integrity and the ledger's invariants):`);
      print(dir);
      return 0;
    }
    if (command === 'restore' && rest.length === 1) {
      const manifest = await restoreBackup(config, schema, rest[0]);
      const where = config.databaseUrl ? 'the database DATABASE_URL names' : `DATA_DIR=${config.dataDir}`;
      print(
        `Restored the backup of ${manifest.createdAt} into ${where} (and its uploads into DATA_DIR): ` +
          `${manifest.counts.users} users, ${manifest.counts.ledgerTransfers} transfers; checked before and after. ` +
          'A backup holds no sessions: everyone signs in again, and turns push notifications on again.',
      );
      return 0;
    }
    warn(USAGE);
    return 2;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    warn(err.message);
    return 1;
  }
}

// Run as a script (not when a test imports it).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runBackupCommand(process.argv.slice(2));
}
