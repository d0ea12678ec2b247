import { Link } from 'react-router-dom';
import type { LinkView } from '../api/types';
import { appLocale, formatDollars, formatRelativeTime } from '../format';
import { linkPath, linkSentence } from '../linkText';
import { GiftProgressView } from './GiftProgressView';
import { CoinsIcon, PackageIcon } from './Icons';
import { VerifiedBadge } from './VerifiedBadge';
import './LinkCard.css';

/** Whether a link can still be used, and if not, why: what its owner reads on its card. */
export type LinkState = 'open' | 'used' | 'expired';

export function linkState(link: LinkView, now: number): LinkState {
  if (link.status === 'used' || link.details.remainingQuantity <= 0) return 'used';
  if (link.status === 'expired' || Date.parse(link.expiresAt) <= now) return 'expired';
  return 'open';
}

/** 'Used up' or 'Expired' for a link no longer open. */
export const CLOSED_LABEL: Record<Exclude<LinkState, 'open'>, string> = { used: 'Used up', expired: 'Expired' };

/** A group gift's progress in words: '$5.00 of $20.00 from 1 person'. */
export function progressText(progress: NonNullable<LinkView['progress']>): string {
  const of = `${formatDollars(progress.raised)} of ${formatDollars(progress.goal)}`;
  if (progress.gifts === 0) return `${of} so far`;
  return `${of} from ${progress.gifts} ${progress.gifts === 1 ? 'person' : 'people'}`;
}

/** A group gift's progress bar, with its words: for everyone who sees the link. */
export function GiftProgress({ link, compact = false }: { link: LinkView; compact?: boolean }) {
  const { progress } = link;
  if (!progress) return null;
  return <GiftProgressView raised={progress.raised} goal={progress.goal} text={progressText(progress)} compact={compact} />;
}

/** 'User is giving $5.00', with the verified badge after 'User' when the (named) creator subscribes. */
function CreatorSentence({ link, mine }: { link: LinkView; mine: boolean }) {
  const sentence = linkSentence(link, mine);
  const subject = 'User';
  if (mine || !link.creatorIsSubscribed || !sentence.startsWith(`${subject} `)) return sentence;
  return (
    <>
      {subject}
      <VerifiedBadge size={16} className="verified-badge--inline" />
      {sentence.slice(subject.length)}
    </>
  );
}

interface LinkCardProps {
  link: LinkView;
  mine: boolean;
  now: number;
}

/** One feed card: who gives or asks for what, and when; opens the creator's link page. */
export function LinkCard({ link, mine, now }: LinkCardProps) {
  const { details } = link;
  const give = details.giveorreceive === 'give';
  const state = linkState(link, now);
  const left =
    give && details.type === 'currency' && details.initialQuantity > 1
      ? `${details.remainingQuantity} of ${details.initialQuantity} left`
      : null;
  const locale = appLocale();
  const tag = mine && state !== 'open' ? CLOSED_LABEL[state] : give ? 'Give' : 'Request';
  return (
    <Link to={linkPath(link.creatorUsername)} className={give ? 'link-card link-card--give' : 'link-card link-card--receive'}>
      <span className="link-card__media" aria-hidden="true">
        {details.type === 'item' && details.photo ? (
          <img src={details.photo} alt="" loading="lazy" width={52} height={52} />
        ) : details.type === 'item' ? (
          <PackageIcon size={24} />
        ) : (
          <CoinsIcon size={24} />
        )}
      </span>
      <span className="link-card__body">
        <span className="link-card__sentence">
          <CreatorSentence link={link} mine={mine} />
        </span>
        <span className="link-card__meta">
          <time dateTime={link.createdAt} lang={locale === 'zh' ? 'zh' : undefined}>
            {formatRelativeTime(link.createdAt, now, locale)}
          </time>
          {left ? ` · ${left}` : null}
        </span>
        <GiftProgress link={link} compact />
      </span>
      <span
        aria-hidden={mine && state !== 'open' ? undefined : true}
        className={
          state !== 'open' && mine
            ? 'link-card__tag link-card__tag--closed'
            : give
              ? 'link-card__tag link-card__tag--give'
              : 'link-card__tag'
        }
      >
        {tag}
      </span>
    </Link>
  );
}
