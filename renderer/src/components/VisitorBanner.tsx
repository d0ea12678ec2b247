import { matchPath, useLocation } from 'react-router-dom';
import { useJoinAvailability } from '../api/invites';
import { LinkFromHere } from './AppLinks';
import { VisitorBannerView } from './VisitorChrome';
import './VisitorBanner.css';

/**
 * Shown to logged-out visitors on pages they may see. The top bar carries Login/Register. On a
 * link or wishlist page whose owner lets visitors join (and whose daily limit is not reached),
 * it offers 'Join Giftlink' (`/register?via={username}`), coming back to the page afterwards.
 */
export function VisitorBanner() {
  const location = useLocation();
  const page = matchPath('/link/:username', location.pathname) ?? matchPath('/wishlist/:username', location.pathname);
  const username = page?.params.username ?? '';
  const join = useJoinAvailability(username);
  const canJoin = username !== '' && join.data?.available === true;

  return <VisitorBannerView Link={LinkFromHere} joinVia={canJoin ? username : undefined} />;
}
