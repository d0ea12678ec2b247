import { z } from 'zod';

/**
 * One of the signed-in user's live sessions (`GET /api/sessions`): a device they signed in on.
 * The id is the session's opaque id (never token material); no address is ever kept or shown.
 */
export interface SessionView {
  id: string;
  /** From the User-Agent at sign-in: 'Chrome on macOS', 'Giftlink desktop on Windows', 'Unknown device'. */
  device: string;
  /** When the session was opened (ISO 8601). */
  createdAt: string;
  /** Its last request or socket connection (ISO 8601), recorded at most once a minute. */
  lastSeenAt: string;
  /** True for the session asking: 'This device'. */
  current: boolean;
}

/** `DELETE /api/sessions/{id}`: one of the user's own sessions; anything else is a 404. */
export const SessionParams = z.object({ id: z.string().min(1).max(64) });

/** `POST /api/sessions/sign-out-others`: how many other sessions were ended. */
export interface SignOutOthersResult {
  signedOut: number;
}
