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
