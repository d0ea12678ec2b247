import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { setSessionUser } from './auth';
import { call } from './client';
import type { PictureKind, UpdateUserRequest } from './types';

export function getUserByUsername(username: string, signal?: AbortSignal) {
  return call('GET /api/users', { query: { username }, signal });
}

export function updateUser(userId: string, changes: UpdateUserRequest) {
  return call('PATCH /api/users/:id', { params: { id: userId }, body: changes });
}

export function uploadPicture(file: File, kind: PictureKind) {
  const form = new FormData();
  form.append('pfpOrCover', kind);
  form.append('file', file);
  return call('POST /api/upload', { body: form });
}

// ---- the query cache ----------------------------------------------------------------------------

export const userKeys = {
  all: ['users'] as const,
  byUsername: (username: string) => [...userKeys.all, 'username', username.toLowerCase()] as const,
};

/** Someone's profile (signed-in viewers only: profiles are not public). */
export function useProfileQuery(username: string, enabled = true) {
  return useQuery({
    queryKey: userKeys.byUsername(username),
    queryFn: ({ signal }) => getUserByUsername(username, signal),
    enabled,
  });
}

/** The signed-in user's own edits: the answer becomes the session's user. */
export function useUpdateUser(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: UpdateUserRequest) => updateUser(userId, changes),
    onSuccess: (user) => {
      setSessionUser(queryClient, user);
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
}

/** A new profile picture or cover photo: the answer's user becomes the session's. */
export function useUploadPicture() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, kind }: { file: File; kind: PictureKind }) => uploadPicture(file, kind),
    onSuccess: ({ user }) => {
      setSessionUser(queryClient, user);
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
}
