import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useRespondedQuery } from '../../api/links';
import { GiftIcon, PlusIcon } from '../../components/Icons';

/**
 * Under 'you can't use this link more than once': where to go instead. Only for a link used before
 * this visit (the first answer of the check); a use made here shows its own outcome.
 */
export function UsedLinkNext({ creatorUsername, viewerId }: { creatorUsername: string; viewerId: string }) {
  const responded = useRespondedQuery(creatorUsername, viewerId);
  const answer = responded.data?.responded;
  const [usedBefore, setUsedBefore] = useState<boolean | null>(null);
  useEffect(() => {
    if (usedBefore === null && answer !== undefined) setUsedBefore(answer);
  }, [usedBefore, answer]);
  if (!usedBefore) return null;
  return (
    <section className="card link-next" aria-label="What next">
      <GiftIcon size={22} />
      <p className="muted">Make a link of your own to ask for a gift or give one, or see what others have shared.</p>
      <div className="link-actions__row">
        <Link className="btn btn--primary" to="/share">
          <PlusIcon size={18} />
          Create your own link
        </Link>
        <Link className="btn" to="/">
          Go to your feed
        </Link>
      </div>
    </section>
  );
}
