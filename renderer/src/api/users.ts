import { api } from './client';
import type {
  GetUserIdResponse,
  PictureKind,
  ProfileUser,
  UpdateUserRequest,
  UploadResponse,
  User,
} from './types';

const enc = encodeURIComponent;

export function getUserByUsername(username: string, signal?: AbortSignal) {
  return api.get<ProfileUser>(`/api/users?username=${enc(username)}`, { signal });
}

export function getUserById(userId: string, signal?: AbortSignal) {
  return api.get<ProfileUser>(`/api/users?userId=${enc(userId)}`, { signal });
}

export function getUserId(username: string, signal?: AbortSignal) {
  return api.get<GetUserIdResponse>(`/api/users/getId/${enc(username)}`, { signal });
}

export function updateUser(userId: string, changes: UpdateUserRequest) {
  return api.patch<User>(`/api/users/${enc(userId)}`, changes);
}

export function uploadPicture(file: File, kind: PictureKind) {
  const form = new FormData();
  form.append('pfpOrCover', kind);
  form.append('file', file);
  return api.post<UploadResponse>('/api/upload', form);
}
