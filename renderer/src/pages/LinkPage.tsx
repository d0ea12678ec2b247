import { useAtomValue } from 'jotai';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { LINK_GONE, LINK_LOAD_FAILED, LINK_NOT_FOUND } from '../../../api/contract/texts';
import { ApiError, errorMessage } from '../api/client';
import { useLinkQuery } from '../api/links';
import type { LinkView } from '../api/types';
import { useProfileQuery } from '../api/users';
import { LockIcon } from '../components/Icons';
import { MessagePopup } from '../components/MessagePopup';
import { PageSpinner } from '../components/Spinner';
import { usePageTitle } from '../components/usePageTitle';
import { isOwnLink } from '../linkText';
import { fromLocation } from '../state/navigation';
import { userAtom } from '../state/session';
import { LinkHero } from './link/LinkHero';
import { OwnerView } from './link/OwnerView';
import { ResponderView } from './link/ResponderView';
import './LinkPage.css';

function linkLoadError(err: unknown): string {
  if (err instanceof ApiError && err.status === 404) return LINK_NOT_FOUND;
  if (err instanceof ApiError && err.status === 410) return LINK_GONE;
  return errorMessage(err, LINK_LOAD_FAILED);
}

/** /link/{username}: a creator's current link, as whoever opens it sees it (opening counts a view). */
export function LinkPage() {
  const { username = '' } = useParams();
  const user = useAtomValue(userAtom);
  const navigate = useNavigate();
  const { data: link, error, isPending } = useLinkQuery(username, user?._id ?? null);

  usePageTitle(link ? `@${link.creatorUsername}'s link` : 'Link');

  if (isPending) return <PageSpinner label="Loading link" />;
  if (!link) {
    return (
      <div className="link-page">
        <MessagePopup message={linkLoadError(error)} onClose={() => navigate('/')} />
      </div>
    );
  }
  return <LinkDetails link={link} />;
}

function LinkDetails({ link }: { link: LinkView }) {
  const user = useAtomValue(userAtom);
  const location = useLocation();
  const mine = isOwnLink(link, user?.username);
  // The creator's picture and name for signed-in viewers (profiles are not public).
  const creator = useProfileQuery(link.creatorUsername, user !== null && !mine);
  const profile = mine ? user : (creator.data ?? null);
  const give = link.details.giveorreceive === 'give';

  return (
    <div className="link-page">
      <LinkHero link={link} mine={mine} profile={profile} />

      {!user ? (
        <section className="card link-actions link-actions--visitor" aria-label="Log in to use this link">
          <LockIcon size={22} />
          <p>Log in or register to {give ? 'accept this gift' : 'give to this link'}.</p>
          <div className="link-actions__row">
            <Link className="btn btn--primary" to="/login" state={fromLocation(location)}>
              Login
            </Link>
            <Link className="btn" to="/register" state={fromLocation(location)}>
              Register
            </Link>
          </div>
        </section>
      ) : mine ? (
        <OwnerView link={link} />
      ) : (
        <ResponderView link={link} viewerId={user._id} />
      )}
    </div>
  );
}
