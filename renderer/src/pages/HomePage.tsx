import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { GiftIcon, PlusIcon } from '../components/Icons';
import { usePageTitle } from '../components/usePageTitle';
import { userAtom } from '../state/session';
import './HomePage.css';

export function HomePage() {
  const user = useAtomValue(userAtom);
  usePageTitle(null);
  const name = user ? user.displayName || user.username : null;

  return (
    <div className="home">
      <section className="home__hero">
        <div className="home__hero-text">
          <p className="home__eyebrow">{name ? `Hi, ${name}` : 'Giftlink'}</p>
          <h1>Receive gifts from people who love you</h1>
          <p>Create a link to ask for or give money or an item, then share it on Instagram, X or Messages.</p>
        </div>
        <Link className="btn home__add" to="/share">
          <PlusIcon size={20} />
          Create a link
        </Link>
      </section>

      <section className="card home__feed" aria-labelledby="home-feed-title">
        <div className="empty-state">
          <div className="empty-state__icon">
            <GiftIcon size={28} />
          </div>
          <h2 id="home-feed-title">Your feed is coming soon</h2>
          <p className="muted">
            Links shared by people on Giftlink will show up here. In the meantime, create your own link.
          </p>
        </div>
      </section>
    </div>
  );
}
