import { api } from './client';
import type { LoginRequest, LoginResponse, RegisterRequest, RegisterResponse, User } from './types';

export function login(body: LoginRequest, signal?: AbortSignal) {
  return api.post<LoginResponse>('/api/auth/login', body, { signal });
}

export function register(body: RegisterRequest, signal?: AbortSignal) {
  return api.post<RegisterResponse>('/api/auth/register', body, { signal });
}

/** The signed-in user; throws ApiError 401 when nobody is signed in. */
export function getMe(signal?: AbortSignal) {
  return api.get<User>('/api/auth/me', { signal });
}

export function logout() {
  return api.post<void>('/api/auth/logout');
}
