import { useEffect, useRef, useState } from 'react';
import { useAtomValue } from 'jotai';
import { useLinkFeed } from '../../api/links';
import { AppLink } from '../../components/AppLinks';
import { ArrowDownIcon, GiftIcon, PlusIcon } from '../../components/Icons';
import { LinkCard } from '../../components/LinkCard';
import { RetryAlert } from '../../components/RetryAlert';
import { Spinner } from '../../components/Spinner';
import { useNow } from '../../components/useNow';
import { useInfiniteScroll } from '../../components/useInfiniteScroll';
import { usePageTitle } from '../../components/usePageTitle';
import { INFINITE_SCROLL_TRIGGER } from '../../../../api/contract/limits';
import { FEED_LOADING, HOME_FEED_TITLE, HOME_HEADLINE, HOME_INTRO } from '../../../../api/contract/texts';
import { isOwnLink } from '../../linkText';
import { userAtom } from '../../state/session';
import { FeedHeader, HomeHero } from './HomeHero';
import './HomePage.css';

/** PRODUCT.md §2, as written. */
export const FEED_END = 'There are no more links availble. Create one for it to show up on the home page.';

/** The next page loads once the end of the list comes within half a screen of the viewport. */
/** How far (in px, after damping) a pull must go to refresh. */
const PULL_THRESHOLD = 64;
const PULL_MAX = 96;

/** Touch pull-to-refresh at the top of the page; answers how far the finger has pulled. */
function usePullToRefresh(onRefresh: () => void, enabled: boolean): number {
  const [pull, setPull] = useState(0);
  const onRefreshRef = useRef(onRefresh);
  useEffect(() => {
    onRefreshRef.current = onRefresh;
  });

  useEffect(() => {
    if (!enabled) return;
    let startY: number | null = null;
    let distance = 0;
    const onStart = (event: TouchEvent) => {
      startY = window.scrollY <= 0 && event.touches.length === 1 ? event.touches[0].clientY : null;
      distance = 0;
    };
    const onMove = (event: TouchEvent) => {
      if (startY === null) return;
      const dy = event.touches[0].clientY - startY;
      if (dy <= 0 || window.scrollY > 0) {
        distance = 0;
        setPull(0);
        return;
      }
      distance = Math.min(PULL_MAX, dy * 0.5);
      setPull(distance);
    };
    const onEnd = () => {
      if (startY !== null && distance >= PULL_THRESHOLD) onRefreshRef.current();
      startY = null;
      distance = 0;
      setPull(0);
    };
    // The page's own pull-to-refresh replaces the browser's reload-on-pull here.
    const root = document.documentElement;
    const previous = root.style.overscrollBehaviorY;
    root.style.overscrollBehaviorY = 'contain';
    window.addEventListener('touchstart', onStart, { passive: true });
    window.addEventListener('touchmove', onMove, { passive: true });
    window.addEventListener('touchend', onEnd);
    window.addEventListener('touchcancel', onEnd);
    return () => {
      root.style.overscrollBehaviorY = previous;
      window.removeEventListener('touchstart', onStart);
      window.removeEventListener('touchmove', onMove);
      window.removeEventListener('touchend', onEnd);
      window.removeEventListener('touchcancel', onEnd);
    };
  }, [enabled]);

  return pull;
}

export function HomePage() {
  const user = useAtomValue(userAtom);
  usePageTitle(null);
  const name = user ? user.displayName || user.username : null;
  const { query, links, hasMore, status, error, refresh, retry } = useLinkFeed();
  const now = useNow();
  const busy = status !== 'idle';
  const pull = usePullToRefresh(() => void refresh(), status !== 'refreshing' && status !== 'loading');
  // Infinite scroll: a sentinel over the list's last fifth fetches the next page (PRODUCT.md: trigger at 80%).
  const sentinel = useInfiniteScroll(query);

  const pullLabel = status === 'refreshing' ? 'Refreshing…' : pull >= PULL_THRESHOLD ? 'Release to refresh' : 'Pull to refresh';

  return (
    <div className="home">
      <div
        className="home__pull"
        style={{ height: status === 'refreshing' && links.length ? 44 : pull }}
        aria-hidden={pull === 0 && status !== 'refreshing'}
      >
        {pull > 0 || status === 'refreshing' ? (
          <span className="home__pull-inner">
            {status === 'refreshing' ? (
              <Spinner size={18} label="Refreshing links" />
            ) : (
              <ArrowDownIcon size={18} className={pull >= PULL_THRESHOLD ? 'home__pull-arrow is-ready' : 'home__pull-arrow'} />
            )}
            <span>{pullLabel}</span>
          </span>
        ) : null}
      </div>

      <HomeHero
        Link={AppLink}
        eyebrow={name ? `Hi, ${name}` : 'Giftlink'}
        headline={HOME_HEADLINE}
        intro={HOME_INTRO}
        wishlistTo={user ? `/wishlist/${encodeURIComponent(user.username)}` : undefined}
      />

      <section className="home__feed" aria-labelledby="home-feed-title" aria-busy={busy}>
        <FeedHeader
          title={HOME_FEED_TITLE}
          disabled={status === 'refreshing' || status === 'loading'}
          spinning={status === 'refreshing'}
          onRefresh={() => void refresh()}
        />

        {links.length > 0 ? (
          <div className="home__list-area">
            <ul className="home__list">
              {links.map((link) => (
                <li key={link.id}>
                  <LinkCard link={link} mine={isOwnLink(link, user?.username)} now={now} />
                </li>
              ))}
            </ul>
            {/* Covers the last fifth of the loaded list: reaching 80% of it fetches the next page. */}
            <div ref={sentinel} className="home__sentinel" style={{ top: `${INFINITE_SCROLL_TRIGGER * 100}%` }} aria-hidden="true" />
          </div>
        ) : null}

        {status === 'loading' || status === 'loading-more' ? (
          <div className="home__loading">
            <Spinner label={status === 'loading' ? FEED_LOADING : 'Loading more links'} />
          </div>
        ) : null}

        {error ? <RetryAlert className="home__error" message={error} onRetry={retry} /> : null}

        {!error && !hasMore && status !== 'loading' ? (
          links.length === 0 ? (
            <div className="card empty-state">
              <div className="empty-state__icon">
                <GiftIcon size={28} />
              </div>
              <h3>No links yet</h3>
              {/* The product's end text is for the end of a list; an empty feed asks for the first link instead. */}
              <p className="muted">Nobody has shared a link yet. Create one to ask for or give a gift, and it shows up here.</p>
              <AppLink className="btn btn--primary" to="/share">
                <PlusIcon size={18} />
                Create a link
              </AppLink>
            </div>
          ) : (
            <p className="home__end">{FEED_END}</p>
          )
        ) : null}
      </section>
    </div>
  );
}
