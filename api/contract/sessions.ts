import { z } from 'zod';
import { count, isoTime } from './common.js';

/**
 * One of the signed-in user's live sessions (`GET /api/sessions`): a device they signed in on.
 * The id is the session's opaque id (never token material); no address is ever kept or shown.
 */
export const SessionView = z.object({
  id: z.string(),
  /** From the User-Agent at sign-in: 'Chrome on macOS', 'Giftlink desktop on Windows', 'Unknown device'. */
  device: z.string(),
  /** When the session was opened (ISO 8601). */
  createdAt: isoTime,
  /** Its last request or socket connection (ISO 8601), recorded at most once a minute. */
  lastSeenAt: isoTime,
  /** True for the session asking: 'This device'. */
  current: z.boolean(),
});
export type SessionView = z.infer<typeof SessionView>;

/** `DELETE /api/sessions/{id}`: one of the user's own sessions; anything else is a 404. */
export const SessionParams = z.object({ id: z.string().min(1).max(64) });

/** `POST /api/sessions/sign-out-others`: how many other sessions were ended. */
export const SignOutOthersResult = z.object({ signedOut: count });
export type SignOutOthersResult = z.infer<typeof SignOutOthersResult>;
