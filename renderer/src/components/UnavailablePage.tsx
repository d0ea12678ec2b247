import type { ReactNode } from 'react';
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { useProfileQuery } from '../api/users';
import { userAtom } from '../state/session';
import { HomeIcon, PlusIcon, RefreshIcon, UserIcon } from './Icons';
import './UnavailablePage.css';

export type UnavailableReason = 'not-found' | 'gone' | 'error';

interface UnavailablePageProps {
  /** The spec's text: 'Link not found', 'Link is no longer available.', 'User not found'… */
  title: string;
  /** One sentence on what happened and what to do. */
  message: ReactNode;
  reason: UnavailableReason;
  /** Whose page this was: offered as a way forward when that user exists. */
  username: string;
  /** True when the answer already proves the user exists (a link that is gone has a creator). */
  userExists?: boolean;
  /** Shown for a failure that may pass (reason 'error'). */
  onRetry?: () => void;
}

/**
 * What /link/{username} and /wishlist/{username} show when there is nothing to show: a link not
 * found or no longer available, a user who does not exist, a load that failed. An illustration, the
 * spec's text, and a way forward: the user's profile when they exist (profiles are for signed-in
 * users), Home, and creating a link of one's own.
 */
export function UnavailablePage({ title, message, reason, username, userExists, onRetry }: UnavailablePageProps) {
  const me = useAtomValue(userAtom);
  // Signed in, a profile lookup tells whether the user exists when the answer did not say.
  const profile = useProfileQuery(username, me !== null && username !== '' && reason !== 'error');
  const exists = userExists === true || profile.isSuccess;
  const isMe = me !== null && me.username.toLowerCase() === username.toLowerCase();
  const showProfile = me !== null && exists && username !== '';

  return (
    <section className="card unavailable" aria-labelledby="unavailable-title">
      <UnavailableArt reason={reason} />
      <h1 id="unavailable-title" className="unavailable__title">
        {title}
      </h1>
      <p className="unavailable__message muted" role="alert">
        {message}
      </p>
      <div className="unavailable__actions">
        {reason === 'error' && onRetry ? (
          <button type="button" className="btn btn--primary" onClick={onRetry}>
            <RefreshIcon size={18} />
            Try again
          </button>
        ) : null}
        {showProfile ? (
          <Link className="btn btn--primary" to={`/profile/${encodeURIComponent(username)}`}>
            <UserIcon size={18} />
            {isMe ? 'Go to your profile' : `Go to @${username}'s profile`}
          </Link>
        ) : null}
        <Link className={showProfile || reason === 'error' ? 'btn btn--soft' : 'btn btn--primary'} to="/">
          <HomeIcon size={18} />
          Home
        </Link>
        <Link className="btn btn--soft" to="/share">
          <PlusIcon size={18} />
          Create your own link
        </Link>
      </div>
    </section>
  );
}

/** A gift box with a badge saying what happened: a question mark, a clock, or an exclamation mark. */
function UnavailableArt({ reason }: { reason: UnavailableReason }) {
  return (
    <svg className="unavailable__art" width="148" height="120" viewBox="0 0 148 120" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="unavailable-box" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#8b6ff0" />
          <stop offset="1" stopColor="#6a4ce0" />
        </linearGradient>
        <linearGradient id="unavailable-ribbon" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#ff8aa6" />
          <stop offset="1" stopColor="#ff6b8f" />
        </linearGradient>
      </defs>
      <ellipse cx="74" cy="108" rx="50" ry="7" fill="#e5e1f0" />
      <circle cx="20" cy="30" r="4" fill="#efeaff" />
      <circle cx="132" cy="20" r="6" fill="#efeaff" />
      <circle cx="128" cy="70" r="3" fill="#ffd9e2" />
      {/* the box, its lid tipped open */}
      <rect x="34" y="54" width="80" height="50" rx="8" fill="url(#unavailable-box)" />
      <rect x="68" y="54" width="12" height="50" fill="url(#unavailable-ribbon)" />
      <g transform="rotate(-12 40 44)">
        <rect x="28" y="34" width="92" height="18" rx="6" fill="#a48df5" />
        <rect x="68" y="34" width="12" height="18" fill="url(#unavailable-ribbon)" />
        <path
          d="M74 34c-6-14-22-16-22-6 0 6 10 7 22 6Zm0 0c6-14 22-16 22-6 0 6-10 7-22 6Z"
          fill="none"
          stroke="#ff6b8f"
          strokeWidth="5"
          strokeLinejoin="round"
        />
      </g>
      {/* the badge */}
      <circle cx="112" cy="46" r="18" fill="#fff" stroke="#e5e1f0" strokeWidth="2" />
      {reason === 'gone' ? (
        <g stroke="#6a6580" strokeWidth="3.5" strokeLinecap="round" fill="none">
          <circle cx="112" cy="46" r="10" />
          <path d="M112 40v6l4 3" />
        </g>
      ) : reason === 'error' ? (
        <g stroke="#d4334f" strokeWidth="4" strokeLinecap="round">
          <path d="M112 37v11" />
          <path d="M112 55v0.5" />
        </g>
      ) : (
        <g stroke="#6a4ce0" strokeWidth="3.5" strokeLinecap="round" fill="none">
          <path d="M106.5 41.5a5.5 5.5 0 1 1 7.7 5c-1.4.7-2.2 1.8-2.2 3.3v.7" />
          <path d="M112 56v0.5" />
        </g>
      )}
    </svg>
  );
}
