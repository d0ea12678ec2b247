import { LEGAL_PATHS } from '../../../api/contract/legal-paths.js';
import type { Anchor } from './Anchor.js';

/** The foot of every page but the chat thread, once the app has taken a shared page over: the terms and the privacy notice. */
export function SiteFooter({ Link }: { Link: Anchor }) {
  return (
    <footer className="site-footer">
      <Link to={LEGAL_PATHS.terms}>Terms</Link>
      <span aria-hidden="true">·</span>
      <Link to={LEGAL_PATHS.privacy}>Privacy</Link>
    </footer>
  );
}
