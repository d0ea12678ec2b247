import { Link, matchPath, useLocation } from 'react-router-dom';
import { useJoinAvailability } from '../api/invites';
import { fromLocation } from '../state/navigation';
import { GiftIcon } from './Icons';
import './VisitorBanner.css';

/**
 * Shown to logged-out visitors on pages they may see. The top bar carries Login/Register. On a
 * link or wishlist page whose owner lets visitors join with one of their invites (and has one
 * free), it offers 'Join Giftlink' (`/register?via={username}`), coming back to the page afterwards.
 */
export function VisitorBanner() {
  const location = useLocation();
  const page = matchPath('/link/:username', location.pathname) ?? matchPath('/wishlist/:username', location.pathname);
  const username = page?.params.username ?? '';
  const join = useJoinAvailability(username);
  const canJoin = username !== '' && join.data?.available === true;

  return (
    // A landmark of its own (axe 'region'): it sits between the top bar and <main>.
    <aside className={canJoin ? 'visitor-banner visitor-banner--join' : 'visitor-banner'} aria-label="For visitors">
      <span className="visitor-banner__message">
        <GiftIcon size={18} />
        <p>Log in or register to gain full access to all features</p>
      </span>
      {canJoin ? (
        <Link
          className="btn btn--sm btn--primary visitor-banner__join"
          to={`/register?via=${encodeURIComponent(username)}`}
          state={fromLocation(location)}
        >
          Join Giftlink
        </Link>
      ) : null}
    </aside>
  );
}
