import type { InviteView, OwnInviteView } from '../../contract/invites.js';
import type { Config } from '../config.js';
import type { Invite } from './entity.js';
import { inviteUrl } from './service.js';

export type { InviteView };

export const presentInvite = (config: Config, invite: Invite): InviteView => ({
  _id: invite.id,
  code: invite.code,
  status: invite.status,
  url: inviteUrl(config, invite.code),
});

/** `usernames`: who used which invite, by the user's id (usedByNames). */
export const presentOwnInvite = (config: Config, invite: Invite, usernames: ReadonlyMap<string, string>): OwnInviteView => ({
  ...presentInvite(config, invite),
  usedBy: invite.usedById ? (usernames.get(invite.usedById) ?? null) : null,
});
