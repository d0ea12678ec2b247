import { Link } from 'react-router-dom';
import type { LinkView } from '../../api/types';
import { CopyLink } from '../../components/CopyLink';
import { CheckIcon, ClockIcon, EyeIcon, GiftIcon, PlusIcon, UsersIcon } from '../../components/Icons';
import { CLOSED_LABEL, linkState } from '../../components/LinkCard';
import { ShareButton } from '../../components/share/ShareButton';
import { useCountdownNow } from '../../components/useNow';
import { formatDollars, formatTimeLeft } from '../../format';
import { linkUrl } from '../../linkText';
import { VisitorBreakdown } from './VisitorBreakdown';

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
              {state === 'open' ? formatTimeLeft(link.expiresAt, now) : CLOSED_LABEL[state]}
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
        </section>
      ) : (
        <section className="card link-closed" aria-labelledby="link-closed-title">
          <div className={state === 'used' ? 'link-closed__icon link-closed__icon--used' : 'link-closed__icon'}>
            {state === 'used' ? <CheckIcon size={26} /> : <ClockIcon size={26} />}
          </div>
          <h2 id="link-closed-title">{CLOSED_LABEL[state]}</h2>
          <p className="muted">
            {state === 'used'
              ? give
                ? 'Everyone this link was for has used it.'
                : progress
                  ? 'Your friends filled it. The gifts are in your balance.'
                  : 'Your gift arrived.'
              : give
                ? 'Its time ran out. Whatever was not used went back to your balance.'
                : progress && progress.gifts > 0
                  ? `Its time ran out with ${formatDollars(progress.raised)} of ${formatDollars(progress.goal)} given. The gifts are in your balance.`
                  : 'Its time ran out.'}
          </p>
          <Link className="btn btn--gradient" to="/share">
            <PlusIcon size={18} />
            Create a new link
          </Link>
        </section>
      )}
    </>
  );
}
