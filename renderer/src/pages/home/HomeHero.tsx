import type { Anchor } from '../../components/Anchor.js';
import { HeartListIcon, PlusIcon, RefreshIcon } from '../../components/Icons.js';

interface HomeHeroProps {
  Link: Anchor;
  eyebrow: string;
  headline: string;
  intro: string;
  /** The signed-in user's wishlist, for its button. */
  wishlistTo?: string;
}

/** The home page's greeting and its buttons. Pure: the server paints a visitor's. */
export function HomeHero({ Link, eyebrow, headline, intro, wishlistTo }: HomeHeroProps) {
  return (
    <section className="home__hero">
      <div className="home__hero-text">
        <p className="home__eyebrow">{eyebrow}</p>
        <h1>{headline}</h1>
        <p>{intro}</p>
      </div>
      <div className="home__hero-actions">
        <Link className="btn home__add" to="/share">
          <PlusIcon size={20} />
          Create a link
        </Link>
        {wishlistTo ? (
          <Link className="btn home__wishlist" to={wishlistTo}>
            <HeartListIcon size={20} />
            Your wishlist
          </Link>
        ) : null}
      </div>
    </section>
  );
}

/** The feed's title and its Refresh button. */
export function FeedHeader({
  title,
  disabled,
  spinning = false,
  onRefresh,
}: {
  title: string;
  disabled: boolean;
  spinning?: boolean;
  onRefresh?: () => void;
}) {
  return (
    <div className="home__feed-header">
      <h2 id="home-feed-title">{title}</h2>
      <button type="button" className="btn btn--sm btn--ghost" onClick={onRefresh} disabled={disabled}>
        <RefreshIcon size={16} className={spinning ? 'home__spin' : undefined} />
        Refresh
      </button>
    </div>
  );
}
