import { z } from 'zod';
import { count, isoTime, usernameRef } from './common.js';

export const InviteStatus = z.enum(['available', 'used']);
export type InviteStatus = z.infer<typeof InviteStatus>;

/**
 * An invite: `GET /invites/{userId}` lists the user's own, and `GET /invites/accept/{code}`
 * answers a one-item list while the invite is available (an empty one otherwise).
 */
export const InviteView = z.object({
  _id: z.string(),
  code: z.string(),
  status: InviteStatus,
  /** The full `/invite/{code}` URL to share. */
  url: z.string(),
});
export type InviteView = z.infer<typeof InviteView>;

/** One of the signed-in user's own invites (`GET /invites/{userId}`): a used one says who joined with it. */
export const OwnInviteView = InviteView.extend({
  /** The username of the account made with it; null while available, or once that account is closed. */
  usedBy: z.string().nullable(),
});
export type OwnInviteView = z.infer<typeof OwnInviteView>;

/** `GET /invites/accept/{inviteId}`: the invite's code. */
export const InviteParams = z.object({ inviteId: z.string().min(1).max(64) });

/** `GET /invites/{userId}`: whose invites (the signed-in user's own). */
export const InviteOwnerParams = z.object({ userId: z.string().min(1).max(64) });

/** `GET /api/invites/join/{username}`: the link creator whose invite a visitor would use. */
export const JoinParams = z.object({ username: usernameRef });

/**
 * Whether a visitor can register through `username` (`/register?via={username}`): their setting is
 * on and one of their invites is free (or due back). Never a count, never a code.
 */
export const JoinAvailability = z.object({
  available: z.boolean(),
  /** The inviter's display name, for 'Invited by …'; null when not available. */
  displayName: z.string().nullable(),
});
export type JoinAvailability = z.infer<typeof JoinAvailability>;

/** `PUT /api/invites/settings`: the signed-in user's own join setting. */
export const JoinSettingBody = z.object({ letVisitorsJoin: z.boolean() });
export type JoinSettingRequest = z.input<typeof JoinSettingBody>;

/** `GET /api/invites/summary`: the signed-in user's invites at a glance (after any refill). */
export const InviteSummary = z.object({
  /** Unused invites. */
  available: count,
  /** The most unused invites refill brings back (INVITES_PER_USER). */
  max: count,
  /** When the next invite arrives (ISO 8601); null while `available` is at `max`. */
  nextInviteAt: isoTime.nullable(),
  /** Days between two refills (INVITE_REFILL_DAYS). */
  refillDays: z.number(),
  letVisitorsJoin: z.boolean(),
});
export type InviteSummary = z.infer<typeof InviteSummary>;
