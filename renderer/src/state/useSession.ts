import { useCallback, useEffect } from 'react';
import { useAtomValue, useSetAtom } from 'jotai';
import { useNavigate } from 'react-router-dom';
import * as authApi from '../api/auth';
import { ApiError, isAbortError } from '../api/client';
import type { AuthResponse } from '../api/types';
import { platform } from '../platform';
import { preloadImages } from './imagePreload';
import { clearVisitorSessionId } from './visitorSession';
import {
  addImageAtom,
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

  useEffect(() => {
    const controller = new AbortController();
    authApi.getMe(controller.signal).then(
      (user) => loginSuccess(user),
      async (err: unknown) => {
        if (isAbortError(err) || controller.signal.aborted) return;
        if (err instanceof ApiError && err.status === 401) await platform.token.set(null);
        loginFailure(false);
      },
    );
    return () => controller.abort();
  }, [loginSuccess, loginFailure]);

  return checked;
}

/**
 * After login or registration: store the token through the platform, mark the session signed in
 * and warm the image cache with the user's wishlist pictures.
 */
export function useCompleteLogin() {
  const loginSuccess = useSetAtom(loginSuccessAtom);
  const addImage = useSetAtom(addImageAtom);
  return useCallback(
    async (response: AuthResponse) => {
      await platform.token.set(response.token);
      loginSuccess(response.user);
      const urls = (response.wishlistItems ?? []).flatMap((item) => (item.imageUrl ? [item.imageUrl] : []));
      void preloadImages(urls, addImage);
    },
    [loginSuccess, addImage],
  );
}

/** Ends the session everywhere: server cookie, stored token, visitor id, image caches; then /login. */
export function useLogout() {
  const logout = useSetAtom(logoutAtom);
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await authApi.logout();
    } catch {
      // Signing out locally still matters when the server cannot be reached.
    }
    await Promise.allSettled([platform.token.set(null), platform.imageCache.clear()]);
    clearVisitorSessionId();
    logout();
    navigate('/login', { replace: true });
  }, [logout, navigate]);
}
