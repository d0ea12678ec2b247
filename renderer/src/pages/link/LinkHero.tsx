import type { LinkView, ProfileUser } from '../../api/types';
import { CoinsIcon, PackageIcon } from '../../components/Icons';
import { GiftProgress } from '../../components/LinkCard';
import { Avatar } from '../../components/ProfileImages';
import { VerifiedBadge } from '../../components/VerifiedBadge';
import { formatDollars, formatRelativeTime } from '../../format';
import { linkWhat } from '../../linkText';

/** Who made the link, when, and what it gives or asks for. */
export function LinkHero({ link, mine, profile }: { link: LinkView; mine: boolean; profile: ProfileUser | null }) {
  const { details } = link;
  const give = details.giveorreceive === 'give';
  const name = profile?.displayName || `@${link.creatorUsername}`;
  const who = mine ? 'You are' : `@${link.creatorUsername} is`;
  const left =
    give && details.type === 'currency' && details.initialQuantity > 1
      ? `${details.remainingQuantity} of ${details.initialQuantity} left`
      : null;

  return (
    <article className="card link-hero" aria-labelledby="link-title">
      <div className="link-hero__creator">
        <Avatar src={profile?.profilePicture} name={name} size={48} />
        <div>
          <p className="link-hero__name">
            {name}
            {link.creatorIsSubscribed ? <VerifiedBadge size={18} className="verified-badge--inline" /> : null}
          </p>
          <p className="muted small">
            {profile?.displayName ? `@${link.creatorUsername} · ` : ''}
            {formatRelativeTime(link.createdAt)}
          </p>
        </div>
      </div>

      <div className={give ? 'link-hero__gift link-hero__gift--give' : 'link-hero__gift'}>
        <span className="link-hero__media" aria-hidden="true">
          {details.type === 'item' && details.photo ? (
            <img src={details.photo} alt="" width={96} height={96} />
          ) : details.type === 'item' ? (
            <PackageIcon size={36} />
          ) : (
            <CoinsIcon size={36} />
          )}
        </span>
        <div className="link-hero__text">
          <p className="link-hero__eyebrow">{give ? 'Gift link' : 'Gift request'}</p>
          <h1 id="link-title" className="link-hero__title">
            {who} {give ? 'giving' : 'requesting'} <span className="link-hero__what">{linkWhat(link)}</span>
          </h1>
          {details.type === 'item' ? <p className="muted small">{formatDollars(details.amount)} with shipping</p> : null}
          {left ? <p className="link-hero__left">{left}</p> : null}
        </div>
      </div>
      {link.progress ? <GiftProgress link={link} /> : null}
    </article>
  );
}
