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
