import { useAtomValue } from 'jotai';
import { Link, useParams } from 'react-router-dom';
import { useProfileLinkQuery } from '../../api/links';
import { ApiError } from '../../api/client';
import type { LinkView, ProfileUser } from '../../api/types';
import { useProfileQuery } from '../../api/users';
import { GiftIcon, HeartListIcon, LockIcon, MapPinIcon, SettingsIcon } from '../../components/Icons';
import { Avatar, Cover } from '../../components/ProfileImages';
import { PageSpinner } from '../../components/Spinner';
import { useNow } from '../../components/useNow';
import { usePageTitle } from '../../components/usePageTitle';
import { VerifiedBadge } from '../../components/VerifiedBadge';
import { formatTimeLeft } from '../../format';
import { CLOSED_LABEL, linkState } from '../../components/LinkCard';
import { linkPath, linkSentence } from '../../linkText';
import { userAtom } from '../../state/session';
import './ProfilePage.css';

function profileErrorMessage(err: unknown): string {
  if (err instanceof ApiError && err.status === 404) return 'User not found';
  if (err instanceof ApiError && err.status === 0) return err.message;
  return 'An error occurred when loading this profile. Please try again later.';
}

export function ProfilePage() {
  const { username = '' } = useParams();
  const me = useAtomValue(userAtom);
  const isOwner = me !== null && me.username.toLowerCase() === username.toLowerCase();
  // The owner's own profile is the session's user, the freshest copy there is.
  const other = useProfileQuery(username, !isOwner);
  const profile: ProfileUser | null = isOwner ? me : (other.data ?? null);
  usePageTitle(profile ? profile.displayName || profile.username : 'Profile');

  if (!profile) {
    if (other.isError) {
      return (
        <div className="card empty-state">
          <div className="empty-state__icon">
            <GiftIcon size={28} />
          </div>
          <h1>{profileErrorMessage(other.error)}</h1>
          <p className="muted">Check the username and try again.</p>
          <Link className="btn btn--primary" to="/">
            Go home
          </Link>
        </div>
      );
    }
    return <PageSpinner label="Loading profile" />;
  }

  const name = profile.displayName || profile.username;
  const wishlistPath = `/wishlist/${encodeURIComponent(profile.username)}`;

  return (
    <article className="profile">
      <div className="profile__card card">
        <div className="profile__cover-wrap">
          <Cover src={profile.coverPicture} name={name} className="profile__cover" />
        </div>
        <div className="profile__body">
          <Avatar src={profile.profilePicture} name={name} size={112} className="profile__avatar" />
          <div className="profile__info">
            <h1 className="profile__name">
              <span>{name}</span>
              {profile.isSubscribed ? <VerifiedBadge size={22} className="profile__verified" /> : null}
            </h1>
            <p className="profile__username">@{profile.username}</p>
            {profile.bio ? <p className="profile__bio">{profile.bio}</p> : null}
            {profile.location ? (
              <p className="profile__location">
                <MapPinIcon size={16} />
                <span>{profile.location}</span>
              </p>
            ) : null}
          </div>
          <div className="profile__actions">
            <Link className="btn btn--sm btn--soft" to={wishlistPath}>
              <HeartListIcon size={16} />
              Wishlist
            </Link>
            {isOwner ? (
              <Link className="btn btn--sm" to={`/profile/${encodeURIComponent(profile.username)}/settings`}>
                <SettingsIcon size={16} />
                Settings
              </Link>
            ) : null}
          </div>
        </div>
      </div>

      <ProfileLinkCard username={profile.username} isOwner={isOwner} />
    </article>
  );
}

type LinkCardState = { kind: 'loading' } | { kind: 'ready'; link: LinkView | null } | { kind: 'locked' } | { kind: 'error' };

/**
 * The profile's link card. A user's link is shown to its creator (and to subscribers, whom the
 * API lets see it); anyone else is asked to subscribe.
 */
function ProfileLinkCard({ username, isOwner }: { username: string; isOwner: boolean }) {
  const me = useAtomValue(userAtom);
  const canSee = isOwner || (me?.isSubscribed ?? false);
  const now = useNow(60_000);
  const query = useProfileLinkQuery(username, me?._id ?? null, canSee);
  const state: LinkCardState = !canSee
    ? { kind: 'locked' }
    : query.isSuccess
      ? { kind: 'ready', link: query.data }
      : query.isError
        ? query.error instanceof ApiError && query.error.status === 403
          ? { kind: 'locked' }
          : { kind: 'error' }
        : { kind: 'loading' };

  const title = isOwner ? 'Your link' : 'Link';

  if (state.kind === 'locked') {
    return (
      <section className="card profile__link" aria-label={title}>
        <div className="profile__link-icon profile__link-icon--locked">
          <LockIcon size={24} />
        </div>
        <p className="profile__link-text profile__locked">Subscribe to see this user's link</p>
        {me ? (
          <Link className="btn btn--sm btn--soft" to={`/manage-subscription/${encodeURIComponent(me.username)}`}>
            Subscribe
          </Link>
        ) : null}
      </section>
    );
  }

  const latest = state.kind === 'ready' ? state.link : null;
  const latestState = latest ? linkState(latest, now) : null;
  const link = latest && latestState === 'open' ? latest : null;
  // The owner's last link, used up or expired: say so, and offer a new one.
  const closed = isOwner && latest && latestState !== 'open' && latestState !== null ? CLOSED_LABEL[latestState] : null;
  return (
    <section className="card profile__link" aria-label={title} aria-busy={state.kind === 'loading'}>
      <div className="profile__link-icon">
        <GiftIcon size={24} />
      </div>
      <div className="profile__link-text">
        <h2>{title}</h2>
        {state.kind === 'loading' ? (
          <p className="muted">Loading…</p>
        ) : state.kind === 'error' ? (
          <p className="muted">This link could not be loaded. Please try again later.</p>
        ) : link ? (
          <>
            <p className="profile__link-sentence">{linkSentence(link, isOwner)}</p>
            <p className="muted small">{formatTimeLeft(link.expiresAt, now)}</p>
          </>
        ) : closed && latest ? (
          <>
            <p className="profile__link-sentence">
              {linkSentence(latest, true)} <span className="profile__link-closed">{closed}</span>
            </p>
            <p className="muted small">Create a new link to keep receiving gifts.</p>
          </>
        ) : isOwner ? (
          <p className="muted">Create a link to receive or give a gift, then share it anywhere.</p>
        ) : (
          <p className="muted">No active link right now.</p>
        )}
      </div>
      {link ? (
        <Link className="btn btn--primary" to={linkPath(link.creatorUsername)}>
          {isOwner ? 'Open your link' : 'Open link'}
        </Link>
      ) : isOwner && state.kind === 'ready' ? (
        <Link className="btn btn--primary" to="/share">
          {closed ? 'Create a new link' : 'Create a link'}
        </Link>
      ) : null}
    </section>
  );
}
