import { Link } from 'react-router-dom';
import { GiftIcon } from '../components/Icons';
import { usePageTitle } from '../components/usePageTitle';

/** Stands in for routes that later issues build, so links and guards already work. */
export function ComingSoonPage({ title }: { title: string }) {
  usePageTitle(title);
  return (
    <div>
      <header className="page-header">
        <h1>{title}</h1>
      </header>
      <div className="card empty-state">
        <div className="empty-state__icon">
          <GiftIcon size={28} />
        </div>
        <h2>Coming soon</h2>
        <p className="muted">This part of Giftlink is on its way.</p>
        <Link className="btn btn--soft" to="/">
          Back to home
        </Link>
      </div>
    </div>
  );
}
