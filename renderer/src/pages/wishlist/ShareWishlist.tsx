import { ShareButton } from '../../components/share/ShareButton';

/** The owner's 'Share': opens 'How to Share the Link' for the wishlist. */
export function ShareWishlist({ username }: { username: string }) {
  return (
    <div className="wishlist__share">
      <ShareButton subject={{ kind: 'wishlist', username }} label="Share" className="btn btn--soft btn--sm" />
    </div>
  );
}
