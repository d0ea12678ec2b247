import { COPY_FAILED, COPY_OK, useCopy } from '../../components/CopyLink';
import { CheckIcon, ShareIcon } from '../../components/Icons';

/** The wishlist's shareable address. */
export function wishlistUrl(username: string): string {
  return new URL(`/wishlist/${encodeURIComponent(username)}`, window.location.origin).toString();
}

/** The owner's share action: copies the wishlist's address. */
export function ShareWishlist({ username }: { username: string }) {
  const [result, copy] = useCopy();
  const share = () => copy(wishlistUrl(username));

  return (
    <div className="wishlist__share">
      <button type="button" className="btn btn--soft btn--sm" onClick={() => void share()}>
        {result?.ok ? <CheckIcon size={16} /> : <ShareIcon size={16} />}
        Share wishlist
      </button>
      <p className={result && !result.ok ? 'wishlist__share-status is-error' : 'wishlist__share-status'} role="status" aria-live="polite">
        {result ? (result.ok ? COPY_OK : COPY_FAILED) : ''}
      </p>
    </div>
  );
}
