import type { Session } from '../auth/entity.js';
import { hashPassword } from '../users/passwords.js';
import { createSession, revokeUserSessions, type NewSession } from '../auth/session.js';
import type { Config } from '../config.js';
import type { Database } from '../db/index.js';
import type { Realtime } from '../realtime/hub.js';
import type { User } from '../users/entity.js';
import { applyUserEdits, editing, type UserEdits } from '../users/service.js';
import { enqueueAlert } from '../alerts/outbox.js';

/**
 * A password change, with the profile edits that came with it, in one transaction: the new hash
 * is stored, every session of the user is revoked and one new session (`newSession`) opened for
 * the client asking. Once that has committed, the sockets of every other session close, on every
 * API process. Answers the user and the new session, which the route hands to the client.
 */
export async function changePassword(
  deps: { db: Database; realtime: Pick<Realtime, 'endSessions'>; config: Pick<Config, 'passwordHash'> },
  userId: string,
  edits: Omit<UserEdits, 'passwordHash'> & { password: string },
  newSession: NewSession,
): Promise<{ user: User; session: Session }> {
  const { password, ...profile } = edits;
  const passwordHash = await hashPassword(password, deps.config.passwordHash);
  const changed = await editing(() =>
    deps.db.transaction(async (em) => {
      const user = await applyUserEdits(em, userId, { ...profile, passwordHash });
      // The new session first: the asking browser's push devices move to it, every other session's end.
      const session = await createSession(em, userId, newSession);
      await revokeUserSessions(em, userId, session.id);
      await enqueueAlert(em, { userId, kind: 'password_changed' });
      return { user, session };
    }),
  );
  await deps.realtime.endSessions(userId, (id) => id !== changed.session.id);
  return changed;
}
