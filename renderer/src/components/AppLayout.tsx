import { useEffect } from 'react';
import { useAtom, useAtomValue } from 'jotai';
import { Outlet, useLocation } from 'react-router-dom';
import { BALANCE_FETCH_ERROR, balanceDialogOpenAtom, balanceErrorAtom, useRefreshBalance } from '../state/balance';
import { userAtom } from '../state/session';
import { useSessionBootstrap } from '../state/useSession';
import { BalanceDialog } from './BalanceDialog';
import { DatabaseErrorNotice } from './DatabaseErrorNotice';
import { MessagePopup } from './MessagePopup';
import { PageSpinner } from './Spinner';
import { TopBar } from './TopBar';
import { VisitorBanner } from './VisitorBanner';

/** Pages that are about getting an account do not need the visitor banner. */
const NO_BANNER = /^\/(login|register|invite|invites\/accept)(\/|$)/;

export function AppLayout() {
  const checked = useSessionBootstrap();
  const user = useAtomValue(userAtom);
  const { pathname } = useLocation();
  const [balanceDialogOpen, setBalanceDialogOpen] = useAtom(balanceDialogOpenAtom);
  const [balanceError, setBalanceError] = useAtom(balanceErrorAtom);
  const refreshBalance = useRefreshBalance();
  const userId = user?._id ?? null;

  // After login (or on start with a session): the balance straight from the ledger.
  useEffect(() => {
    if (!userId) return;
    const controller = new AbortController();
    void refreshBalance(BALANCE_FETCH_ERROR, controller.signal);
    return () => controller.abort();
  }, [userId, refreshBalance]);

  // Signing out closes what belonged to the session.
  useEffect(() => {
    if (userId) return;
    setBalanceDialogOpen(false);
    setBalanceError(false);
  }, [userId, setBalanceDialogOpen, setBalanceError]);

  if (!checked) return <PageSpinner full label="Loading Giftlink" />;

  const isLogin = pathname === '/login';
  return (
    <div className="app">
      {isLogin ? null : <TopBar />}
      {!user && !NO_BANNER.test(pathname) ? <VisitorBanner /> : null}
      <main className="app-main" id="main">
        <Outlet />
      </main>
      {user && balanceDialogOpen && !balanceError ? <BalanceDialog /> : null}
      {balanceError ? (
        <MessagePopup title="Balance" message={balanceError} onClose={() => setBalanceError(false)} />
      ) : null}
      {balanceError ? null : <DatabaseErrorNotice />}
    </div>
  );
}
