// `npm run invite`: prints a new invite URL.
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/index.js';
import { createSystemInvite, inviteUrl } from './service.js';

const config = loadConfig();
const db = await openDatabase(config);
try {
  const invite = await createSystemInvite(db);
  console.log(inviteUrl(config, invite.code));
} finally {
  await db.close();
}
