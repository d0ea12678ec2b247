import { lazy, Suspense, useCallback, useEffect, useRef } from 'react';
import { useAtom, useAtomValue } from 'jotai';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useAnalytics } from '../analytics/useAnalytics';
import { platform } from '../platform';
import { balanceDialogOpenAtom, balanceErrorAtom, useBalanceRefreshErrors } from '../state/balance';
import { useRealtimeSession } from '../state/realtime';
import { userAtom } from '../state/session';
import { useSessionBootstrap } from '../state/useSession';
import { DatabaseErrorNotice } from './DatabaseErrorNotice';
import { MessagePopup } from './MessagePopup';
import { useHeld } from '../takeover';
import { AppLink } from './AppLinks';
import { SiteFooter } from './SiteFooter';
import { PageSpinner } from './Spinner';
import { TopBar } from './TopBar';
import { UpgradeBanner } from './UpgradeBanner';
import { VisitorBanner } from './VisitorBanner';

/** The balance dialog is for signed-in people only: loaded when first opened, never in a visitor's first load. */
const BalanceDialog = lazy(async () => ({ default: (await import('./BalanceDialog')).BalanceDialog }));

/** Pages that are about getting an account do not need the visitor banner. */
const NO_BANNER = /^\/(login|register|invite|invites\/accept)(\/|$)/;
/** Pages laid out as one screen-high panel (the chat thread). */
const FILL_PAGES = /^\/messages\/[^/]+\/?$/;

export function AppLayout() {
  const checked = useSessionBootstrap();
  const user = useAtomValue(userAtom);
  const { pathname } = useLocation();
  const [balanceDialogOpen, setBalanceDialogOpen] = useAtom(balanceDialogOpenAtom);
  const [balanceError, setBalanceError] = useAtom(balanceErrorAtom);
  const userId = user?._id ?? null;
  // Taking a shared page over, the bars render a step after the rest (takeover.ts).
  const barsHeld = useHeld('bars');
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  useEffect(() => {
    navigateRef.current = navigate;
  }, [navigate]);
  // A click on a system notification opens the page it is about.
  const openPath = useCallback((path: string) => void navigateRef.current(path), []);

  // The desktop app's tray menu, deep links and notifications open routes inside the app.
  useEffect(() => platform.desktop?.onNavigate((route) => void navigateRef.current(route)), []);

  // One live connection per signed-in session (PRODUCT.md §4 and §7).
  useRealtimeSession(userId, openPath);

  // Analytics: the session start once, a page view on every route change (failures only logged).
  useAnalytics();

  // The balance comes with the session; a failed re-read of it after money moved says so.
  useBalanceRefreshErrors();

  // Signing out closes what belonged to the session.
  useEffect(() => {
    if (userId) return;
    setBalanceDialogOpen(false);
    setBalanceError(false);
  }, [userId, setBalanceDialogOpen, setBalanceError]);

  if (!checked) return <PageSpinner full label="Loading Giftlink" />;

  const isLogin = pathname === '/login';
  // The chat thread fills the screen between the top bar and the bottom edge.
  const fill = user !== null && FILL_PAGES.test(pathname);
  return (
    <div className="app">
      {barsHeld ? null : (
        <>
          <UpgradeBanner />
          {isLogin ? null : <TopBar />}
          {!user && !NO_BANNER.test(pathname) ? <VisitorBanner /> : null}
        </>
      )}
      <main className={fill ? 'app-main app-main--fill' : 'app-main'} id="main">
        <Outlet />
      </main>
      {fill || barsHeld ? null : <SiteFooter Link={AppLink} />}
      {user && balanceDialogOpen && !balanceError ? (
        <Suspense fallback={null}>
          <BalanceDialog />
        </Suspense>
      ) : null}
      {balanceError ? <MessagePopup title="Balance" message={balanceError} onClose={() => setBalanceError(false)} /> : null}
      {balanceError ? null : <DatabaseErrorNotice />}
    </div>
  );
}
