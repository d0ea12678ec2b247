import type { LinkView, ProfileUser } from '../../api/types';
import { GiftProgress } from '../../components/LinkCard';
import { Avatar } from '../../components/ProfileImages';
import { VerifiedBadge } from '../../components/VerifiedBadge';
import { formatDollars, formatRelativeTime } from '../../format';
import { linkWhat } from '../../linkText';
import { LinkHeroView } from './LinkHeroView';

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
    <LinkHeroView
      avatar={<Avatar src={profile?.profilePicture} name={name} size={48} />}
      name={
        <>
          {name}
          {link.creatorIsSubscribed ? <VerifiedBadge size={18} className="verified-badge--inline" /> : null}
        </>
      }
      when={`${profile?.displayName ? `@${link.creatorUsername} · ` : ''}${formatRelativeTime(link.createdAt)}`}
      who={who}
      give={give}
      kind={details.type}
      photo={details.type === 'item' ? details.photo : null}
      what={linkWhat(link)}
      shipping={details.type === 'item' ? `${formatDollars(details.amount)} with shipping` : null}
      left={left}
      progress={link.progress ? <GiftProgress link={link} /> : null}
    />
  );
}
