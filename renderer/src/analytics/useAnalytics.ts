import { useEffect } from 'react';
import { useAtomValue } from 'jotai';
import { useLocation } from 'react-router-dom';
import { userAtom } from '../state/session';
import { logPageview, setAnalyticsUser, startSession } from './index';

/**
 * Mounted once in the layout: keeps the analytics user in step with the session, starts the
 * analytics session once per browser session and logs a page view on every route change.
 */
export function useAnalytics(): void {
  const userId = useAtomValue(userAtom)?._id ?? null;
  const { pathname, search } = useLocation();

  useEffect(() => {
    setAnalyticsUser(userId);
  }, [userId]);

  useEffect(() => {
    startSession();
  }, []);

  useEffect(() => {
    logPageview(pathname + search);
  }, [pathname, search]);
}
