import { useAtomValue } from 'jotai';
import { useParams } from 'react-router-dom';
import { GIFTS_PAUSED, LINK_GONE, LINK_LOAD_FAILED, LINK_NOT_FOUND } from '../../../../api/contract/texts';
import { ApiError, errorMessage } from '../../api/client';
import { useLinkQuery } from '../../api/links';
import type { LinkView } from '../../api/types';
import { useProfileQuery } from '../../api/users';
import { LinkFromHere } from '../../components/AppLinks';
import { PageSpinner } from '../../components/Spinner';
import { UnavailablePage, type UnavailableReason } from '../../components/UnavailablePage';
import { usePageTitle } from '../../components/usePageTitle';
import { isOwnLink } from '../../linkText';
import { userAtom } from '../../state/session';
import { AmountPicker, useAmountChoice } from './AmountPicker';
import { LinkHero } from './LinkHero';
import { LinkPausedBox, LinkVisitorBox } from './LinkHeroView';
import { OwnerView } from './OwnerView';
import { ResponderView } from './ResponderView';
import { UsedLinkNext } from './UsedLinkNext';
import './LinkPage.css';

function linkLoadError(err: unknown, username: string): { reason: UnavailableReason; title: string; message: string } {
  if (err instanceof ApiError && err.status === 404)
    return {
      reason: 'not-found',
      title: LINK_NOT_FOUND,
      message: 'There is no link at this address. Check the username, or ask for a new link.',
    };
  if (err instanceof ApiError && err.status === 410)
    return {
      reason: 'gone',
      title: LINK_GONE,
      message: `@${username}'s link was used up or its time ran out. They may share a new one soon.`,
    };
  return { reason: 'error', title: errorMessage(err, LINK_LOAD_FAILED), message: 'The link could not be loaded. Please try again.' };
}

/** /link/{username}: a creator's current link, as whoever opens it sees it (opening counts a view). */
export function LinkPage() {
  const { username = '' } = useParams();
  const user = useAtomValue(userAtom);
  const { data: link, error, isPending, refetch } = useLinkQuery(username, user?._id ?? null);
  const failed = link ? null : linkLoadError(error, username);

  usePageTitle(link ? `@${link.creatorUsername}'s link` : isPending ? 'Link' : (failed?.title ?? 'Link'));

  if (isPending) return <PageSpinner label="Loading link" />;
  if (!link && failed) {
    return (
      <div className="link-page">
        <UnavailablePage {...failed} username={username} userExists={failed.reason === 'gone'} onRetry={() => void refetch()} />
      </div>
    );
  }
  if (!link) return null;
  return <LinkDetails link={link} />;
}

function LinkDetails({ link }: { link: LinkView }) {
  const user = useAtomValue(userAtom);
  const mine = isOwnLink(link, user?.username);
  // The creator's picture and name for signed-in viewers (profiles are not public).
  const creator = useProfileQuery(link.creatorUsername, user !== null && !mine);
  const profile = mine ? user : (creator.data ?? null);
  const give = link.details.giveorreceive === 'give';

  return (
    <div className="link-page">
      <LinkHero link={link} mine={mine} profile={profile} />

      {link.creatorGiftsPaused && !mine ? (
        <LinkPausedBox text={GIFTS_PAUSED} />
      ) : !user ? (
        <>
          {!give && link.details.type === 'currency' && link.status === 'active' ? <VisitorAmount link={link} /> : null}
          <LinkVisitorBox Link={LinkFromHere} give={give} />
        </>
      ) : mine ? (
        <OwnerView link={link} />
      ) : (
        <>
          <ResponderView link={link} viewerId={user._id} />
          <UsedLinkNext creatorUsername={link.creatorUsername} viewerId={user._id} />
        </>
      )}
    </div>
  );
}

/** A visitor picks an amount before logging in or joining: the give step they come back to has it chosen. */
function VisitorAmount({ link }: { link: LinkView }) {
  const [choice, setChoice] = useAmountChoice();
  return (
    <section className="card link-actions" aria-label="Choose an amount">
      <AmountPicker choice={choice} onChange={setChoice} left={link.progress?.left ?? null} />
    </section>
  );
}
