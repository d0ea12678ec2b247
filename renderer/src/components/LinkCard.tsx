import { Link } from 'react-router-dom';
import type { LinkView } from '../api/types';
import { appLocale, formatRelativeTime } from '../format';
import { linkPath, linkSentence } from '../linkText';
import { CoinsIcon, PackageIcon } from './Icons';
import './LinkCard.css';

interface LinkCardProps {
  link: LinkView;
  mine: boolean;
  now: number;
}

/** One feed card: who gives or asks for what, and when; opens the creator's link page. */
export function LinkCard({ link, mine, now }: LinkCardProps) {
  const { details } = link;
  const give = details.giveorreceive === 'give';
  const left =
    give && details.type === 'currency' && details.initialQuantity > 1
      ? `${details.remainingQuantity} of ${details.initialQuantity} left`
      : null;
  const locale = appLocale();
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
        <span className="link-card__sentence">{linkSentence(link, mine)}</span>
        <span className="link-card__meta">
          <time dateTime={link.createdAt} lang={locale === 'zh' ? 'zh' : undefined}>
            {formatRelativeTime(link.createdAt, now, locale)}
          </time>
          {left ? ` · ${left}` : null}
        </span>
      </span>
      <span className={give ? 'link-card__tag link-card__tag--give' : 'link-card__tag'} aria-hidden="true">
        {give ? 'Give' : 'Request'}
      </span>
    </Link>
  );
}
