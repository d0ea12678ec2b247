/**
 * The desktop app's side of the HTTP contract. The app names its version in every request; an API
 * that no longer supports it answers 426 with this body, and the app shows the message with a
 * link to the download.
 */
import type { ApiErrorBody } from './common.js';

/** The request header carrying the desktop app's version (semver, e.g. `0.1.0`). */
export const DESKTOP_VERSION_HEADER = 'x-giftlink-version';
/** The error code of the 426 answer. */
export const UPGRADE_REQUIRED = 'upgrade_required';

export interface UpgradeRequiredBody extends ApiErrorBody {
  error: typeof UPGRADE_REQUIRED;
  /** Where the new version is downloaded (DESKTOP_DOWNLOAD_URL). */
  downloadUrl: string;
}
