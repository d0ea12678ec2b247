import { useQuery } from '@tanstack/react-query';
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

// ---- the query cache ----------------------------------------------------------------------------

export const inviteKeys = {
  all: ['invites'] as const,
  list: (userId: string) => [...inviteKeys.all, 'list', userId] as const,
  check: (code: string) => [...inviteKeys.all, 'check', code] as const,
};

/** The signed-in user's invites. */
export function useInvitesQuery(userId: string) {
  return useQuery({
    queryKey: inviteKeys.list(userId),
    queryFn: ({ signal }) => listInvites(userId, signal),
    enabled: userId !== '',
  });
}

/** Whether an invite code can still make an account (asked only when `enabled`). */
export function useInviteCheck(code: string, enabled: boolean) {
  return useQuery({
    queryKey: inviteKeys.check(code),
    queryFn: async ({ signal }) => {
      const invites = await checkInvite(code, signal);
      return Array.isArray(invites) && invites.some((invite) => invite.status !== 'used');
    },
    enabled,
  });
}
