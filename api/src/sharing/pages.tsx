/**
 * The visitor pages' first paint, rendered on the server from the app's own views (renderer/src),
 * so the app takes them over in place, without a jump. Public fields only: no balance, no views,
 * no givers. Preact escapes every text and attribute.
 */
import type { ComponentChildren } from 'preact';
import { renderToString } from 'preact-render-to-string';
import type { Anchor } from '../../../renderer/src/components/Anchor.js';
import { AuthCardView } from '../../../renderer/src/components/AuthCardView.js';
import { GiftProgressView } from '../../../renderer/src/components/GiftProgressView.js';
import { Spinner } from '../../../renderer/src/components/Spinner.js';
import { TopBarFrame, VisitorActions, VisitorBannerView } from '../../../renderer/src/components/VisitorChrome.js';
import { FeedHeader, HomeHero } from '../../../renderer/src/pages/home/HomeHero.js';
import { LinkHeroView, LinkPausedBox, LinkVisitorBox } from '../../../renderer/src/pages/link/LinkHeroView.js';
import { LoginFooter, LoginForm } from '../../../renderer/src/pages/login/LoginForm.js';
import {
  rowImageLoading,
  WishlistEmpty,
  WishlistHeading,
  WishlistPaused,
  WishRowBody,
} from '../../../renderer/src/pages/wishlist/WishlistViews.js';
import { itemThumbUrl } from '../../contract/item-images.js';
import { formatCents } from '../../contract/money.js';
import { PASSWORD_MIN_LENGTH } from '../../contract/limits.js';
import {
  FEED_LOADING,
  GIFTS_PAUSED,
  HOME_FEED_TITLE,
  HOME_HEADLINE,
  HOME_INTRO,
  LOGIN_TAGLINE,
  LOGIN_TITLE,
} from '../../contract/texts.js';
import { relativeTimeText } from '../../contract/time.js';
import { isGroupGift } from '../../contract/link-use.js';
import type { Link } from '../links/entity.js';
import type { User } from '../users/entity.js';
import { WISHLIST_MAX_ITEMS, type WishlistItem } from '../wishlists/entity.js';
import { DEFAULT_AVATAR } from './mark.js';
import { LegalView } from '../../../renderer/src/pages/legal/LegalView.js';
import { legalDoc, type LegalKind } from '../../contract/legal.js';

/** A view's link before the app's router arrives: a plain `<a href>`. */
const A: Anchor = ({ to, ...rest }) => <a href={to} {...rest} />;

/** The app's shell as a visitor sees it (renderer/src/components/AppLayout.tsx). `joinVia`: the banner offers 'Join Giftlink'. */
function Shell({ children, joinVia }: { children: ComponentChildren; joinVia?: string }) {
  return (
    <div className="app">
      <TopBarFrame Link={A}>
        <VisitorActions Link={A} />
      </TopBarFrame>
      <VisitorBannerView Link={A} joinVia={joinVia} />
      <main className="app-main" id="main">
        {children}
      </main>
    </div>
  );
}

/** The app's relative time (renderer/src/format.ts, in English): 'just now', '2 hours ago'. */
export const relativeTime = (then: Date, now: Date): string => relativeTimeText((now.getTime() - then.getTime()) / 1000, 'en');

/** What a link gives or asks for, as its share text says it: '$5.00' or the item's title. */
export const linkWhat = (link: Link) => (link.type === 'item' ? (link.title ?? 'an item') : formatCents(link.amountCents));

/** A group gift's progress in words, as the app says it (renderer/src/components/LinkCard.tsx). */
function progressText(link: Link): string {
  const of = `${formatCents(link.raisedCents)} of ${formatCents(link.totalCostCents)}`;
  return link.gifts === 0 ? `${of} so far` : `${of} from ${link.gifts} ${link.gifts === 1 ? 'person' : 'people'}`;
}

/**
 * A link page as the app draws it for a signed-out visitor (renderer/src/pages/link/LinkHero.tsx;
 * profiles are not public, so the creator shows as @username). `canJoin`: the banner offers 'Join Giftlink'.
 */
export function linkMarkup(creator: User, link: Link, canJoin = false, now = new Date()): string {
  const give = link.giveOrReceive === 'give';
  const at = `@${creator.username}`;
  return renderToString(
    <Shell joinVia={canJoin ? creator.username : undefined}>
      <div className="link-page">
        <LinkHeroView
          avatar={<img className="avatar" src={DEFAULT_AVATAR} alt="" width={48} height={48} />}
          name={at}
          when={relativeTime(link.createdAt, now)}
          who={`${at} is`}
          give={give}
          kind={link.type}
          photo={link.photo}
          what={linkWhat(link)}
          shipping={link.type === 'item' ? `${formatCents(link.amountCents)} with shipping` : null}
          left={
            give && link.type === 'currency' && link.initialQuantity > 1
              ? `${link.remainingQuantity} of ${link.initialQuantity} left`
              : null
          }
          progress={
            isGroupGift(link) ? (
              <GiftProgressView raised={link.raisedCents / 100} goal={link.totalCostCents / 100} text={progressText(link)} />
            ) : null
          }
        />
        {creator.giftsPausedAt ? <LinkPausedBox text={GIFTS_PAUSED} /> : <LinkVisitorBox Link={A} give={give} />}
      </div>
    </Shell>,
  );
}

/**
 * A wishlist page: its heading and first items (title, price, image), as the app lists them.
 * `canJoin`: the banner offers 'Join Giftlink', as on a link page.
 */
export function wishlistMarkup(owner: User, items: WishlistItem[], total: number, canJoin = false): string {
  const at = `@${owner.username}`;
  return renderToString(
    <Shell joinVia={canJoin ? owner.username : undefined}>
      <div className="wishlist">
        <header className="wishlist__header">
          <WishlistHeading title={`${at}'s wishlist`} counts={`${total} of ${WISHLIST_MAX_ITEMS} items`} />
        </header>
        {owner.giftsPausedAt ? <WishlistPaused text={GIFTS_PAUSED} /> : null}
        {items.length === 0 ? (
          <WishlistEmpty title="Nothing here yet" message={`${at} has not added any items yet.`} />
        ) : (
          <ul className="wishlist__list" aria-label="Wishlist items">
            {items.map((item, index) => (
              <li key={item.id} className="wish-row">
                <span className="wish-row__main">
                  <WishRowBody
                    image={
                      item.imageUrl ? (
                        <img src={itemThumbUrl(item.imageUrl)} alt="" width={72} height={72} {...rowImageLoading(index)} />
                      ) : undefined
                    }
                    title={item.title}
                    price={formatCents(item.priceCents)}
                  />
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Shell>,
  );
}

/**
 * The wishlist page's head: the first item's picture (the page's largest paint) asked for at once,
 * with the stylesheet, rather than once the markup below it is read.
 */
export function wishlistHead(items: WishlistItem[]): string {
  const first = items.find((item) => item.imageUrl)?.imageUrl;
  return first ? renderToString(<link rel="preload" as="image" href={itemThumbUrl(first)} fetchpriority="high" />) : '';
}

/** The home page as a visitor first sees it: the hero, and the feed's header over its spinner. Made once. */
export const HOME_MARKUP = renderToString(
  <Shell>
    <div className="home">
      <div className="home__pull" style={{ height: 0 }} aria-hidden="true" />
      <HomeHero Link={A} eyebrow="Giftlink" headline={HOME_HEADLINE} intro={HOME_INTRO} />
      <section className="home__feed" aria-labelledby="home-feed-title" aria-busy="true">
        <FeedHeader title={HOME_FEED_TITLE} disabled />
        <div className="home__loading">
          <Spinner label={FEED_LOADING} />
        </div>
      </section>
    </div>
  </Shell>,
);

/**
 * The login page as a visitor first sees it (no top bar): what is typed before the app arrives
 * moves into the app's fields (renderer/src/takeover.ts). Made once.
 */
export const LOGIN_MARKUP = renderToString(
  <div className="app">
    <main className="app-main" id="main">
      <AuthCardView Link={A} title={LOGIN_TITLE} tagline={LOGIN_TAGLINE} footer={<LoginFooter Link={A} />}>
        <LoginForm Link={A} passwordMinLength={PASSWORD_MIN_LENGTH} />
      </AuthCardView>
    </main>
  </div>,
);

/** The terms or the privacy notice as a visitor first sees them, naming the address at `host` to write to. */
export const legalMarkup = (kind: LegalKind, host: string): string =>
  renderToString(
    <Shell>
      <LegalView doc={legalDoc(kind, host)} />
    </Shell>,
  );
