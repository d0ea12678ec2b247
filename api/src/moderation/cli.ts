// `npm run moderation`: open reports; `-- resolve <id>`; `-- suspend <username|id> [reason]`; `-- unsuspend <username|id>`.
import '../node-guard.js';
import { pathToFileURL } from 'node:url';
import { ConfigError, environment, loadConfig } from '../config.js';
import { openServerDatabase } from '../db/instance.js';
import { schema } from '../schema.js';
import { AppError } from '../errors.js';
import { formatCents } from '../../contract/money.js';
import { listOpenReports, resolveReport, suspendAccount, unsuspendAccount, type ModeratorReportView } from './service.js';

const USAGE = [
  'npm run moderation                                   list open reports',
  'npm run moderation -- resolve <report id>            mark a report resolved',
  'npm run moderation -- suspend <username|id> [reason] suspend an account (ends its sessions, refunds its give links)',
  'npm run moderation -- unsuspend <username|id>        lift a suspension',
].join('\n');

/** One report as lines of text (moderators see who reported whom). */
export function formatReport(r: ModeratorReportView): string {
  const lines = [
    `#${r.id}  ${r.createdAt}  ${r.reason}  (${r.kind})`,
    `  reporter: ${r.reporter.username} (${r.reporter.id})`,
    `  reported: ${r.reported.username} (${r.reported.id})${r.reported.suspended ? '  [suspended]' : ''}`,
    `  conversation: ${r.conversationId}`,
  ];
  if (r.note) lines.push(`  note: ${r.note}`);
  for (const m of r.messages) lines.push(`  > [${m.createdAt}] ${m.sender}: ${m.text.replace(/\s+/g, ' ')}`);
  return lines.join('\n');
}

/** Runs one moderation command; answers the process exit code. The CLI below is only this. */
export async function runModeration(
  args: string[],
  env: Record<string, string | undefined> = environment(),
  print: (line: string) => void = (line) => console.log(line),
  warn: (line: string) => void = (line) => console.error(line),
): Promise<number> {
  const [command, target, ...rest] = args;
  if (command !== undefined && command !== 'list' && !target) {
    print(USAGE);
    return command === 'help' || command === '--help' ? 0 : 1;
  }
  const db = await openServerDatabase(loadConfig(env), schema, warn);
  try {
    switch (command) {
      case undefined:
      case 'list': {
        const reports = await listOpenReports(db);
        if (!reports.length) print('No open reports.');
        for (const r of reports) print(formatReport(r) + '\n');
        return 0;
      }
      case 'resolve':
        if (!(await resolveReport(db, target))) {
          print(`No open report ${target}.`);
          return 1;
        }
        print(`Report ${target} resolved.`);
        return 0;
      case 'suspend': {
        const result = await suspendAccount({ db }, target, rest.join(' ') || null);
        print(
          result.suspended
            ? `Suspended ${result.user.username} (${result.user.id}); ${formatCents(result.refundedCents)} of give link escrow refunded.`
            : `${result.user.username} was already suspended.`,
        );
        return 0;
      }
      case 'unsuspend':
        await unsuspendAccount(db, target);
        print(`${target} can log in again.`);
        return 0;
      default:
        print(USAGE);
        return 1;
    }
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    print(err.message);
    return 1;
  } finally {
    await db.close();
  }
}

// Run as a script (not when a test imports it).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    process.exitCode = await runModeration(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    process.exitCode = 1;
  }
}
