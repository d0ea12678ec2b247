import { ALERT_LOCKED } from '../../contract/texts.js';
import { isLockedAlertKind, type AlertKind, type AlertPreferencesAnswer, type PutAlertPreferences } from '../../contract/alerts.js';
import type { Database } from '../db/index.js';
import { badRequest } from '../errors.js';
import { AlertPreferenceEntity } from './entity.js';
import { isEnabled, presentPreferences } from './rules.js';
import { recipientRow } from './store.js';

/** The channels that deliver: email, and Web Push to the devices turned on in Settings (push/). */
const AVAILABLE: AlertPreferencesAnswer['available'] = ['email', 'push'];

/** Every kind with its channels for the user, defaults applied. */
export async function alertPreferences(db: Database, userId: string): Promise<AlertPreferencesAnswer> {
  const stored = await db.manager.find(AlertPreferenceEntity, { where: { userId } });
  return { preferences: presentPreferences(stored), available: AVAILABLE };
}

/** Saves the switches named; turning a security kind off is refused (400) and nothing is saved. */
export async function setAlertPreferences(db: Database, userId: string, body: PutAlertPreferences): Promise<AlertPreferencesAnswer> {
  if (body.preferences.some((p) => isLockedAlertKind(p.kind) && !p.enabled)) throw badRequest(ALERT_LOCKED, 'alert_locked');
  const rows = body.preferences.filter((p) => !isLockedAlertKind(p.kind)).map((p) => ({ userId, ...p }));
  if (rows.length) await db.transaction((em) => em.upsert(AlertPreferenceEntity, rows, ['userId', 'kind', 'channel']));
  return alertPreferences(db, userId);
}

/** An unsubscribe link's effect: that kind's email off for that user (again: no change). */
export async function unsubscribeEmail(db: Database, userId: string, kind: AlertKind): Promise<void> {
  // An account deleted since the email went has nothing left to turn off.
  if (!(await recipientRow(db, userId))) return;
  await db.transaction((em) =>
    em.upsert(AlertPreferenceEntity, [{ userId, kind, channel: 'email', enabled: false }], ['userId', 'kind', 'channel']),
  );
}

/** Whether the user gets this kind by email now. */
export async function emailEnabled(db: Database, userId: string, kind: AlertKind): Promise<boolean> {
  const stored = await db.manager.findOneBy(AlertPreferenceEntity, { userId, kind, channel: 'email' });
  return isEnabled(kind, 'email', stored?.enabled);
}
