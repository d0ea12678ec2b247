import { z } from 'zod';
import { usernameRef } from './common.js';

export type InviteStatus = 'available' | 'used';

/**
 * An invite: `GET /invites/{userId}` lists the user's own, and `GET /invites/accept/{code}`
 * answers a one-item list while the invite is available (an empty one otherwise).
 */
export interface InviteView {
  _id: string;
  code: string;
  status: InviteStatus;
  /** The full `/invite/{code}` URL to share. */
  url: string;
}

/** `GET /api/invites/join/{username}`: the link creator whose invite a visitor would use. */
export const JoinParams = z.object({ username: usernameRef });

/**
 * Whether a visitor can register through `username` (`/register?via={username}`): their setting is
 * on and one of their invites is free (or due back). Never a count, never a code.
 */
export interface JoinAvailability {
  available: boolean;
  /** The inviter's display name, for 'Invited by …'; null when not available. */
  displayName: string | null;
}

/** `PUT /api/invites/settings`: the signed-in user's own join setting. */
export const JoinSettingBody = z.object({ letVisitorsJoin: z.boolean() });
export type JoinSettingRequest = z.input<typeof JoinSettingBody>;

/** `GET /api/invites/summary`: the signed-in user's invites at a glance (after any refill). */
export interface InviteSummary {
  /** Unused invites. */
  available: number;
  /** The most unused invites refill brings back (INVITES_PER_USER). */
  max: number;
  /** When the next invite arrives (ISO 8601); null while `available` is at `max`. */
  nextInviteAt: string | null;
  /** Days between two refills (INVITE_REFILL_DAYS). */
  refillDays: number;
  letVisitorsJoin: boolean;
}
