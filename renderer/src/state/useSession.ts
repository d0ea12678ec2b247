import { useCallback, useEffect } from 'react';
import { useAtomValue, useSetAtom } from 'jotai';
import { useNavigate } from 'react-router-dom';
import * as authApi from '../api/auth';
import { ApiError, isAbortError } from '../api/client';
import type { AuthResponse } from '../api/types';
import { platform } from '../platform';
import { usePreloadSessionImages, useRestoreSessionImages } from './imageCache';
import { resetRealtimeAtom } from './realtime';
import { clearImageCache } from './imagePreload';
import { clearVisitorSessionId } from './visitorSession';
import {
  loginFailureAtom,
  loginSuccessAtom,
  logoutAtom,
  sessionCheckedAtom,
} from './session';

/** On app start: ask the API who is signed in (cookie on the web, stored token on desktop). */
export function useSessionBootstrap(): boolean {
  const checked = useAtomValue(sessionCheckedAtom);
  const loginSuccess = useSetAtom(loginSuccessAtom);
  const loginFailure = useSetAtom(loginFailureAtom);
  const restoreImages = useRestoreSessionImages();

  useEffect(() => {
    const controller = new AbortController();
    authApi.getMe(controller.signal).then(
      (user) => {
        loginSuccess(user);
        restoreImages(user.username);
      },
      async (err: unknown) => {
        if (isAbortError(err) || controller.signal.aborted) return;
        if (err instanceof ApiError && err.status === 401) await platform.token.set(null);
        loginFailure(false);
      },
    );
    return () => controller.abort();
  }, [loginSuccess, loginFailure, restoreImages]);

  return checked;
}

/**
 * After login or registration: store the token through the platform, mark the session signed in,
 * save the user's wishlist pictures in the local image cache and preload the onboarding art.
 */
export function useCompleteLogin() {
  const loginSuccess = useSetAtom(loginSuccessAtom);
  const preloadSessionImages = usePreloadSessionImages();
  return useCallback(
    async (response: AuthResponse) => {
      await platform.token.set(response.token);
      loginSuccess(response.user);
      const urls = (response.wishlistItems ?? []).flatMap((item) => (item.imageUrl ? [item.imageUrl] : []));
      preloadSessionImages(response.user.username, urls);
    },
    [loginSuccess, preloadSessionImages],
  );
}

/**
 * Ends the session everywhere (SPEC section 4): the socket, server cookie, stored token, visitor
 * id, image caches; then /login.
 */
export function useLogout() {
  const logout = useSetAtom(logoutAtom);
  const resetRealtime = useSetAtom(resetRealtimeAtom);
  const navigate = useNavigate();
  return useCallback(async () => {
    resetRealtime();
    try {
      await authApi.logout();
    } catch {
      // Signing out locally still matters when the server cannot be reached.
    }
    await Promise.allSettled([platform.token.set(null), clearImageCache()]);
    clearVisitorSessionId();
    logout();
    navigate('/login', { replace: true });
  }, [logout, resetRealtime, navigate]);
}
