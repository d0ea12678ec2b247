import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from './client';

/** The signed-in user's live sessions, the current one first. */
export function listSessions(signal?: AbortSignal) {
  return call('GET /api/sessions', { signal });
}

/** Signs out one of the user's other sessions; its sockets close on every server. */
export function signOutSession(id: string) {
  return call('DELETE /api/sessions/:id', { params: { id } });
}

/** Signs out every session but this one. */
export function signOutOtherSessions() {
  return call('POST /api/sessions/sign-out-others', {});
}

// ---- the query cache ----------------------------------------------------------------------------

/** Not `sessionKeys` (api/auth.ts: the signed-in user): the list of signed-in devices. */
export const deviceSessionKeys = {
  list: ['device-sessions'] as const,
};

export function useSessionsQuery(enabled = true) {
  return useQuery({
    queryKey: deviceSessionKeys.list,
    queryFn: ({ signal }) => listSessions(signal),
    enabled,
  });
}

export function useSignOutSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOutSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: deviceSessionKeys.list }),
  });
}

export function useSignOutOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOutOtherSessions,
    onSettled: () => queryClient.invalidateQueries({ queryKey: deviceSessionKeys.list }),
  });
}
