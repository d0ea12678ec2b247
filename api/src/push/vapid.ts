import fs from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import type { Config } from '../config.js';
import { PRIVATE_FILE_MODE, makePrivateDir } from '../files.js';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  /** Who the push services may contact (the JWT's `sub`). */
  subject: string;
}

/** VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY, or a pair generated once into DATA_DIR/vapid.json (owner-only) when unset. */
export function resolveVapid(config: Config): VapidKeys {
  const subject = config.vapidSubject ?? vapidSubjectOf(config);
  if (config.vapid) return { ...config.vapid, subject };
  const file = path.join(config.dataDir, 'vapid.json');
  const read = (): VapidKeys => ({ ...(JSON.parse(fs.readFileSync(file, 'utf8')) as Omit<VapidKeys, 'subject'>), subject });
  try {
    return read();
  } catch {
    makePrivateDir(config.dataDir);
    const keys = webpush.generateVAPIDKeys();
    try {
      fs.writeFileSync(file, JSON.stringify(keys), { mode: PRIVATE_FILE_MODE, flag: 'wx' });
      fs.chmodSync(file, PRIVATE_FILE_MODE);
      return { ...keys, subject };
    } catch {
      return read(); // another process wrote it first
    }
  }
}

/** `mailto:` the From address of outgoing email, else the public site (push services want a contact). */
function vapidSubjectOf(config: Config): string {
  const address = /<([^>]+)>/.exec(config.mailFrom)?.[1] ?? config.mailFrom;
  if (address.includes('@') && !address.endsWith('@localhost')) return `mailto:${address}`;
  return config.publicUrl.startsWith('https://') ? config.publicUrl : 'mailto:no-reply@giftlink.invalid';
}
