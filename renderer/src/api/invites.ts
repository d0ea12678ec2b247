import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { JoinSettingRequest } from '../../../api/contract/invites';
import { setSessionUser } from './auth';
import { call } from './client';

/** A non-empty answer means the invite exists and is still available. */
export function checkInvite(code: string, signal?: AbortSignal) {
  return call('GET /invites/accept/:inviteId', { params: { inviteId: code }, signal });
}

export function listInvites(userId: string, signal?: AbortSignal) {
  return call('GET /invites/:userId', { params: { userId }, signal });
}

/** Whether a visitor can join through `username` (their link page's creator). */
export function getJoinAvailability(username: string, signal?: AbortSignal) {
  return call('GET /api/invites/join/:username', { params: { username }, signal });
}

/** The signed-in user's invites at a glance: how many are free, when the next arrives. */
export function getInviteSummary(signal?: AbortSignal) {
  return call('GET /api/invites/summary', { signal });
}

/** Turns 'Let people who open my links join…' on or off; answers the updated user. */
export function setJoinSetting(body: JoinSettingRequest) {
  return call('PUT /api/invites/settings', { body });
}

// ---- the query cache ----------------------------------------------------------------------------

export const inviteKeys = {
  all: ['invites'] as const,
  list: (userId: string) => [...inviteKeys.all, 'list', userId] as const,
  check: (code: string) => [...inviteKeys.all, 'check', code] as const,
  join: (username: string) => [...inviteKeys.all, 'join', username.toLowerCase()] as const,
  summary: (userId: string) => [...inviteKeys.all, 'summary', userId] as const,
};

/** The signed-in user's invites. */
export function useInvitesQuery(userId: string) {
  return useQuery({
    queryKey: inviteKeys.list(userId),
    queryFn: ({ signal }) => listInvites(userId, signal),
    enabled: userId !== '',
  });
}

/** The signed-in user's invite summary (asked after the list, which refills first). */
export function useInviteSummary(userId: string, enabled = true) {
  return useQuery({
    queryKey: inviteKeys.summary(userId),
    queryFn: ({ signal }) => getInviteSummary(signal),
    enabled: enabled && userId !== '',
  });
}

/** Whether a visitor of `username`'s link can join with one of their invites. */
export const joinAvailabilityQuery = (username: string) =>
  queryOptions({
    queryKey: inviteKeys.join(username),
    queryFn: ({ signal }) => getJoinAvailability(username, signal),
    staleTime: 30_000,
  });

export function useJoinAvailability(username: string, enabled = true) {
  return useQuery({ ...joinAvailabilityQuery(username), enabled: enabled && username !== '' });
}

/** The join setting: its answer becomes the session's user. */
export function useJoinSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (letVisitorsJoin: boolean) => setJoinSetting({ letVisitorsJoin }),
    onSuccess: (user) => {
      setSessionUser(queryClient, user);
      void queryClient.invalidateQueries({ queryKey: inviteKeys.all });
    },
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
