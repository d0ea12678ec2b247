import { useAtomValue } from 'jotai';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { sessionCheckedAtom, userAtom } from '../state/session';
import { fromLocation } from '../state/navigation';
import { PageSpinner } from './Spinner';

/** Pages for signed-in users: visitors go to /login and come back here afterwards. */
export function ProtectedRoute() {
  const user = useAtomValue(userAtom);
  const checked = useAtomValue(sessionCheckedAtom);
  const location = useLocation();

  if (!checked) return <PageSpinner />;
  if (!user) return <Navigate to="/login" replace state={fromLocation(location)} />;
  return <Outlet />;
}
