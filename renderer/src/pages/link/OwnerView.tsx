import type { LinkView } from '../../api/types';
import { CopyLink } from '../../components/CopyLink';
import { ClockIcon, EyeIcon, UsersIcon } from '../../components/Icons';
import { ShareButton } from '../../components/share/ShareButton';
import { useNow } from '../../components/useNow';
import { formatDollars, formatTimeLeft } from '../../format';
import { linkUrl } from '../../linkText';
import { VisitorBreakdown } from './VisitorBreakdown';

/** The creator's own link: its metrics (counts; the visitor breakdown for a subscriber) and its address to share. */
export function OwnerView({ link }: { link: LinkView }) {
  const now = useNow(30_000);
  const { details, metrics } = link;
  return (
    <>
      <section className="card link-metrics" aria-labelledby="link-metrics-title">
        <h2 id="link-metrics-title">Link Metrics</h2>
        <dl className="link-metrics__grid">
          <div className="link-metrics__wide">
            <dt>{details.type === 'item' ? 'Item' : 'Amount'}</dt>
            <dd>{details.type === 'item' ? (details.title ?? 'Item') : formatDollars(details.amount)}</dd>
          </div>
          <div className="link-metrics__wide">
            <dt>
              <ClockIcon size={16} /> Time left
            </dt>
            <dd>{formatTimeLeft(link.expiresAt, now)}</dd>
          </div>
          {details.type === 'currency' ? (
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
      <section className="card">
        <CopyLink url={linkUrl(link.creatorUsername)} label="Share your link" />
        <ShareButton subject={{ kind: 'link', link }} />
      </section>
    </>
  );
}
