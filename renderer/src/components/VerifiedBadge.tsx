import { VerifiedIcon } from './Icons';
import './VerifiedBadge.css';

/**
 * The verified badge beside a named user who subscribes. Render it only from a named user's own
 * wire data (`isSubscribed`, `creatorIsSubscribed`): an anonymous giver has none, so never shows one.
 */
export function VerifiedBadge({ size = 18, className }: { size?: number; className?: string }) {
  return (
    <span className={className ? `verified-badge ${className}` : 'verified-badge'} title="Verified subscriber">
      <VerifiedIcon size={size} />
      <span className="visually-hidden">Verified</span>
    </span>
  );
}
