import type { ReactNode } from 'react';
import { HeartListIcon, PackageIcon } from '../../components/Icons.js';

/** The wishlist's icon, title and counts ('3 of 10 items'). Pure: the server paints it too. */
export function WishlistHeading({ title, counts }: { title: string; counts: ReactNode }) {
  return (
    <div className="wishlist__heading">
      <span className="wishlist__icon" aria-hidden="true">
        <HeartListIcon size={26} />
      </span>
      <div>
        <p className="wishlist__eyebrow">Wishlist</p>
        <h1>{title}</h1>
        <p className="muted small">{counts}</p>
      </div>
    </div>
  );
}

/** An empty wishlist's card. */
export function WishlistEmpty({ title, message }: { title: string; message: string }) {
  return (
    <div className="card empty-state">
      <div className="empty-state__icon">
        <PackageIcon size={28} />
      </div>
      <h2>{title}</h2>
      <p className="muted">{message}</p>
    </div>
  );
}

/** Rows from this one on load their picture only when scrolled near (below a desktop's first screen). */
const LAZY_FROM = 6;

/**
 * How the picture of the row at `index` loads: the first one before anything else (it is the
 * page's largest paint), those far down the list when scrolled to. The server's first paint uses it too.
 */
export const rowImageLoading = (index: number) => ({
  fetchpriority: index === 0 ? ('high' as const) : undefined,
  loading: index >= LAZY_FROM ? ('lazy' as const) : undefined,
});

interface WishRowBodyProps {
  /** The item's picture (the app's cached image, or a plain one on the server's first paint). */
  image?: ReactNode;
  title: string;
  /** '$5.00'; none on a received item. */
  price?: string;
  /** ' · free shipping' after the price. */
  shipping?: string;
  /** What follows the price (a purchased item's badge). */
  children?: ReactNode;
}

/** What a wishlist row shows of its item: the picture, the title, the price. */
export function WishRowBody({ image, title, price, shipping, children }: WishRowBodyProps) {
  return (
    <>
      <span className="wish-row__image">{image ?? <PackageIcon size={24} />}</span>
      <span className="wish-row__text">
        <span className="wish-row__title">{title}</span>
        {price === undefined ? null : (
          <span className="wish-row__price">
            {price}
            {shipping === undefined ? null : <span className="wish-row__shipping">{shipping}</span>}
          </span>
        )}
        {children}
      </span>
    </>
  );
}

/** A paused owner's list, for everyone but them: it stays up, but nothing can be bought from it for now. */
export function WishlistPaused({ text }: { text: string }) {
  return <p className="card wishlist__paused">{text}</p>;
}
