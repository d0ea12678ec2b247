import type { Config } from '../config.js';
import type { Database } from '../db/index.js';
import { removeImage, storeImage } from '../uploads/service.js';
import type { User } from '../users/entity.js';
import { setPicture } from '../users/service.js';

/** Which of a user's pictures an upload replaces. */
export type PictureSlot = 'profilePicture' | 'coverPicture';

/**
 * Replaces one of the user's pictures with an uploaded image: the bytes are checked, re-encoded
 * and stored (uploads/service.ts), the user points at the new file, and the file it replaces is
 * removed once nothing points at it. A new file that no user came to point at is removed too.
 * Answers the user as changed and the new picture's public location.
 */
export async function replaceProfilePicture(
  deps: { db: Database; config: Config },
  userId: string,
  slot: PictureSlot,
  image: Buffer,
): Promise<{ user: User; location: string }> {
  const location = await storeImage(deps.config, image);
  let changed: Awaited<ReturnType<typeof setPicture>>;
  try {
    changed = await setPicture(deps.db, userId, slot, location);
  } catch (err) {
    await removeImage(deps.config, location);
    throw err;
  }
  await removeImage(deps.config, changed.previous);
  return { user: changed.user, location };
}
