import { useCallback, useEffect, useRef } from 'react';
import { useSetAtom } from 'jotai';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { unlessReadAhead } from '../api/queryClient';
import { clearServerState, logout as endServerSession, sessionQuery, setSessionUser, type SignedIn } from '../api/auth';
import { platform } from '../platform';
import { usePreloadSessionImages, useRestoreSessionImages } from './imageCache';
import { resetRealtimeAtom } from './realtime';
import { clearImageCache } from './imagePreload';
import { clearVisitorSessionId } from './visitorSession';
import { loginSuccessAtom, logoutAtom } from './session';

/**
 * On app start: ask the API who is signed in (cookie on the web, stored token on desktop), and
 * put what the local image cache holds for them back in memory. Answers whether it has answered.
 */
export function useSessionBootstrap(): boolean {
  const { data, status } = useQuery({ ...sessionQuery, refetchOnMount: unlessReadAhead });
  const restoreImages = useRestoreSessionImages();
  const restored = useRef(false);

  useEffect(() => {
    if (restored.current || status === 'pending') return;
    restored.current = true;
    if (data) restoreImages(data.username);
  }, [status, data, restoreImages]);

  return status !== 'pending';
}

/**
 * After login or registration (whose calls already handed the token to the platform), mark the session signed in,
 * save the user's wishlist pictures in the local image cache and preload the onboarding art.
 */
export function useCompleteLogin() {
  const queryClient = useQueryClient();
  const loginSuccess = useSetAtom(loginSuccessAtom);
  const preloadSessionImages = usePreloadSessionImages();
  return useCallback(
    async (response: SignedIn) => {
      // What was read as a visitor is read again as this user.
      clearServerState(queryClient);
      setSessionUser(queryClient, response.user);
      loginSuccess();
      const urls = (response.wishlistItems ?? []).flatMap((item) => (item.imageUrl ? [item.imageUrl] : []));
      preloadSessionImages(response.user.username, urls);
    },
    [queryClient, loginSuccess, preloadSessionImages],
  );
}

/**
 * Ends the session everywhere (PRODUCT.md §4): the socket, server cookie, stored token, visitor
 * id, image caches, every cached server answer; then /login.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  const logout = useSetAtom(logoutAtom);
  const resetRealtime = useSetAtom(resetRealtimeAtom);
  const navigate = useNavigate();
  // `to`: where to land afterwards (/goodbye after the account is deleted).
  return useCallback(
    async (to: '/login' | '/goodbye' = '/login') => {
      resetRealtime();
      try {
        await endServerSession();
      } catch {
        // Signing out locally still matters when the server cannot be reached.
      }
      await Promise.allSettled([platform.token.set(null), clearImageCache()]);
      clearVisitorSessionId();
      setSessionUser(queryClient, null);
      logout();
      await navigate(to, { replace: true });
      clearServerState(queryClient);
    },
    [queryClient, logout, resetRealtime, navigate],
  );
}
