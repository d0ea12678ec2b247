import { Link } from 'react-router-dom';
import { LINK_CANCELLED, LINK_CANCELLED_BODY } from '../../../../api/contract/texts';
import type { LinkView } from '../../api/types';
import { CopyLink } from '../../components/CopyLink';
import { CheckIcon, ClockIcon, EyeIcon, GiftIcon, PlusIcon, UsersIcon } from '../../components/Icons';
import { CLOSED_LABEL, linkState } from '../../components/LinkCard';
import { ShareButton } from '../../components/share/ShareButton';
import { useCountdownNow } from '../../components/useNow';
import { formatDollars, formatTimeLeft } from '../../format';
import { linkUrl } from '../../linkText';
import { CancelLink } from './CancelLink';
import { VisitorBreakdown } from './VisitorBreakdown';

/** Why a link closed, as its owner reads it: a title and a line; null while it is open. */
export function closedText(link: LinkView, now: number): { title: string; body: string } | null {
  const state = linkState(link, now);
  if (state === 'open') return null;
  const { progress } = link;
  const give = link.details.giveorreceive === 'give';
  // Closed before its time ran out: its owner took it back.
  if (link.status === 'expired' && Date.parse(link.expiresAt) > now) return { title: LINK_CANCELLED, body: LINK_CANCELLED_BODY };
  const title = CLOSED_LABEL[state];
  if (state === 'used') {
    if (give) return { title, body: 'Everyone this link was for has used it.' };
    return { title, body: progress ? 'Your friends filled it. The gifts are in your balance.' : 'Your gift arrived.' };
  }
  if (give) return { title, body: 'Its time ran out. Whatever was not used went back to your balance.' };
  if (progress && progress.gifts > 0)
    return {
      title,
      body: `Its time ran out with ${formatDollars(progress.raised)} of ${formatDollars(progress.goal)} given. The gifts are in your balance.`,
    };
  return { title, body: 'Its time ran out.' };
}

/**
 * The creator's own link: its metrics (counts; a group gift's raised and gifts, its bar being in the
 * hero above; the visitor breakdown for a subscriber), and its address to share while it is open, or 'Create a new link' once it is used up
 * or expired.
 */
export function OwnerView({ link }: { link: LinkView }) {
  const now = useCountdownNow(link.expiresAt);
  const { details, metrics, progress } = link;
  const state = linkState(link, now);
  const give = details.giveorreceive === 'give';
  const closed = closedText(link, now);
  return (
    <>
      <section className="card link-metrics" aria-labelledby="link-metrics-title">
        <h2 id="link-metrics-title">Link Metrics</h2>
        <dl className="link-metrics__grid">
          <div className="link-metrics__wide">
            <dt>{details.type === 'item' ? 'Item' : give ? 'Amount' : 'Goal'}</dt>
            <dd>{details.type === 'item' ? (details.title ?? 'Item') : formatDollars(details.amount)}</dd>
          </div>
          <div className="link-metrics__wide">
            <dt>
              <ClockIcon size={16} /> {state === 'open' ? 'Time left' : 'Status'}
            </dt>
            <dd className={state === 'open' ? undefined : 'link-metrics__closed'}>
              {closed?.title ?? formatTimeLeft(link.expiresAt, now)}
            </dd>
          </div>
          {progress ? (
            <>
              <div>
                <dt>Raised</dt>
                <dd>{formatDollars(progress.raised)}</dd>
              </div>
              <div>
                <dt>
                  <GiftIcon size={16} /> Gifts
                </dt>
                <dd>{progress.gifts}</dd>
              </div>
            </>
          ) : details.type === 'currency' ? (
            <>
              <div>
                <dt>Available</dt>
                <dd>{details.remainingQuantity}</dd>
              </div>
              <div>
                <dt>Initial quantity</dt>
                <dd>{details.initialQuantity}</dd>
              </div>
            </>
          ) : null}
          <div>
            <dt>
              <EyeIcon size={16} /> Views
            </dt>
            <dd>{metrics?.views ?? 0}</dd>
          </div>
          <div>
            <dt>
              <UsersIcon size={16} /> Visitors
            </dt>
            <dd>{metrics?.visitorCount ?? 0}</dd>
          </div>
        </dl>
        <VisitorBreakdown link={link} />
      </section>
      {state === 'open' ? (
        <section className="card">
          <CopyLink url={linkUrl(link.creatorUsername)} label="Share your link" />
          <ShareButton subject={{ kind: 'link', link }} />
          {give ? <CancelLink link={link} /> : null}
        </section>
      ) : (
        <section className="card link-closed" aria-labelledby="link-closed-title">
          <div className={state === 'used' ? 'link-closed__icon link-closed__icon--used' : 'link-closed__icon'}>
            {state === 'used' ? <CheckIcon size={26} /> : <ClockIcon size={26} />}
          </div>
          <h2 id="link-closed-title">{closed?.title}</h2>
          <p className="muted">{closed?.body}</p>
          <Link className="btn btn--gradient" to="/share">
            <PlusIcon size={18} />
            Create a new link
          </Link>
        </section>
      )}
    </>
  );
}
