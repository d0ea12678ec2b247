import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ForgotPasswordRequest, ResetPasswordRequest } from '../../../api/contract/auth';
import { VISITOR_COOKIE } from '../../../api/contract/visitor';
import { platform } from '../platform';
import { ApiError, call } from './client';
import { endThisBrowsersPush } from './push';
import { answerAhead, readAhead } from './queryClient';
import type { AuthResponse, BalanceEvent, LoginRequest, RegisterRequest, User } from './types';

/** A new session as the page keeps it: the user and their wishlist pictures, never the token. */
export type SignedIn = Omit<AuthResponse, 'token'>;

/**
 * The token goes straight to the platform and no further: the desktop app's main process keeps it
 * in the OS keychain; the website's store keeps nothing (the answer also set its httpOnly cookie).
 */
async function handOver({ token, ...signedIn }: AuthResponse): Promise<SignedIn> {
  await platform.token.set(token);
  return signedIn;
}

export async function login(body: LoginRequest, signal?: AbortSignal): Promise<SignedIn> {
  return handOver(await call('POST /api/auth/login', { body, signal }));
}

export async function register(body: RegisterRequest, signal?: AbortSignal): Promise<SignedIn> {
  return handOver(await call('POST /api/auth/register', { body, signal }));
}

/**
 * The signed-in user, or null when no credentials were sent (the server answers a visitor 204);
 * throws ApiError 401 when the credentials sent no longer hold.
 */
export async function getMe(signal?: AbortSignal): Promise<User | null> {
  // A visitor's 204 has no body: undefined.
  return (await call('GET /api/auth/me', { signal })) ?? null;
}

/** Ends the session; this browser's push subscription ends first, so a shared browser shows no more of its alerts. */
export async function logout() {
  await endThisBrowsersPush();
  return call('POST /api/auth/logout', {});
}

/** Asks for a reset link by email; the answer is the same whether the address has an account or not. */
export function forgotPassword(body: ForgotPasswordRequest) {
  return call('POST /api/auth/forgot-password', { body });
}

/** Sets a new password with the emailed link's token; every session of the account ends. */
export function resetPassword(body: ResetPasswordRequest) {
  return call('POST /api/auth/reset-password', { body });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}

/** A reset ends every session, this browser's too: the session is read again (signed out). */
export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetPassword,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: sessionKeys.me });
    },
  });
}

// ---- the session in the query cache -------------------------------------------------------------

export const sessionKeys = {
  me: ['session', 'me'] as const,
};

/**
 * The session: the signed-in user (their balance included), or null for a visitor. Read once at
 * start-up (cookie on the web, stored token on desktop), then replaced by login, edits and
 * logout; its balance follows the socket's `balance` events. `state/session.ts` mirrors it into `userAtom`.
 */
export const sessionQuery = queryOptions({
  queryKey: sessionKeys.me,
  queryFn: async ({ signal }): Promise<User | null> => {
    try {
      return await getMe(signal);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        await platform.token.set(null);
        return null;
      }
      throw err;
    }
  },
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: Number.POSITIVE_INFINITY,
});

/**
 * The session, read before the first render (App.tsx preloadPage). A page the server sent to a
 * browser holding no session says so (VISITOR_COOKIE): a visitor's first screen then waits for no
 * `GET /api/auth/me`. The desktop app keeps its session in the keychain, not in a cookie: it always
 * asks, whoever served its pages.
 */
export function readSessionAhead(queryClient: QueryClient): Promise<void> {
  if (platform.kind === 'web' && document.cookie.split('; ').includes(`${VISITOR_COOKIE}=1`)) {
    answerAhead(queryClient, sessionKeys.me, null);
    return Promise.resolve();
  }
  return readAhead(queryClient, sessionQuery);
}

/** Puts a fresh copy of the signed-in user (after login, an edit or an upload), or null, in the session. */
export function setSessionUser(queryClient: QueryClient, user: User | null): void {
  queryClient.setQueryData(sessionKeys.me, user);
}

/** A balance the server just answered (a deposit's `new_balance`). */
export function setSessionBalance(queryClient: QueryClient, balance: number): void {
  queryClient.setQueryData<User | null>(sessionKeys.me, (user) => (user ? { ...user, balance } : user));
}

/** The balance the server pushed after money moved (the socket's `balance`): the session's copy takes it whole. */
export function setPushedBalance(queryClient: QueryClient, pushed: BalanceEvent): void {
  queryClient.setQueryData<User | null>(sessionKeys.me, (user) => (user ? { ...user, ...pushed } : user));
}

/** Re-reads the session (what it carries besides the balance, or everything after an outage). Resolves false when it could not. */
export function refreshSession(queryClient: QueryClient): Promise<boolean> {
  return queryClient.invalidateQueries({ queryKey: sessionKeys.me, refetchType: 'all' }, { throwOnError: true }).then(
    () => true,
    () => false,
  );
}

/** Forgets every server answer but the session's own (the signed-in user changed). */
export function clearServerState(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionKeys.me[0] });
}
