import { Link } from 'react-router-dom';
import { GOODBYE_TEXT, GOODBYE_TITLE } from '../../../../api/contract/texts';
import { GiftIcon } from '../../components/Icons';
import { usePageTitle } from '../../components/usePageTitle';

/** Where a deleted account lands, signed out. */
export function GoodbyePage() {
  usePageTitle(GOODBYE_TITLE);
  return (
    <div className="card empty-state">
      <div className="empty-state__icon">
        <GiftIcon size={28} />
      </div>
      <h1>{GOODBYE_TITLE}</h1>
      <p className="muted">{GOODBYE_TEXT}</p>
      <Link className="btn btn--primary" to="/">
        Back to home
      </Link>
    </div>
  );
}
