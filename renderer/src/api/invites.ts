import { api } from './client';
import type { Invite, InviteCheck } from './types';

const enc = encodeURIComponent;

/** A non-empty answer means the invite exists and is still available. */
export function checkInvite(code: string, signal?: AbortSignal) {
  return api.get<InviteCheck[]>(`/invites/accept/${enc(code)}`, { signal });
}

export function listInvites(userId: string, signal?: AbortSignal) {
  return api.get<Invite[]>(`/invites/${enc(userId)}`, { signal });
}
