import { Link, matchPath, useLocation } from 'react-router-dom';
import { useJoinAvailability } from '../api/invites';
import { fromLocation } from '../state/navigation';
import { GiftIcon } from './Icons';
import './VisitorBanner.css';

/**
 * Shown to logged-out visitors on pages they may see. The top bar carries Login/Register. On a
 * link page whose creator lets visitors join with one of their invites (and has one free), it
 * offers 'Join Giftlink' (`/register?via={username}`), coming back to the link afterwards.
 */
export function VisitorBanner() {
  const location = useLocation();
  const username = matchPath('/link/:username', location.pathname)?.params.username ?? '';
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
