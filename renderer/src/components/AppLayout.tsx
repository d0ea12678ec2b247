import { useAtomValue } from 'jotai';
import { Outlet, useLocation } from 'react-router-dom';
import { userAtom } from '../state/session';
import { useSessionBootstrap } from '../state/useSession';
import { PageSpinner } from './Spinner';
import { TopBar } from './TopBar';
import { VisitorBanner } from './VisitorBanner';

/** Pages that are about getting an account do not need the visitor banner. */
const NO_BANNER = /^\/(login|register|invite|invites\/accept)(\/|$)/;

export function AppLayout() {
  const checked = useSessionBootstrap();
  const user = useAtomValue(userAtom);
  const { pathname } = useLocation();

  if (!checked) return <PageSpinner full label="Loading Giftlink" />;

  const isLogin = pathname === '/login';
  return (
    <div className="app">
      {isLogin ? null : <TopBar />}
      {!user && !NO_BANNER.test(pathname) ? <VisitorBanner /> : null}
      <main className="app-main" id="main">
        <Outlet />
      </main>
    </div>
  );
}
