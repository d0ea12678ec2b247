import { Link } from 'react-router-dom';
import { GiftIcon } from '../../components/Icons';
import { usePageTitle } from '../../components/usePageTitle';

export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <div className="card empty-state">
      <div className="empty-state__icon">
        <GiftIcon size={28} />
      </div>
      <h1>Page not found</h1>
      <p className="muted">The page you are looking for does not exist.</p>
      <Link className="btn btn--primary" to="/">
        Back to home
      </Link>
    </div>
  );
}
