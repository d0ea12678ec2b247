import type { Config } from '../config.js';
import type { Invite } from './entity.js';
import { inviteUrl } from './service.js';

export interface InviteView {
  _id: string;
  code: string;
  status: 'available' | 'used';
  url: string;
}

export const presentInvite = (config: Config, invite: Invite): InviteView => ({
  _id: invite.id,
  code: invite.code,
  status: invite.status,
  url: inviteUrl(config, invite.code),
});
