import { CachedImage } from '../../components/CachedImage';
import { CheckIcon, PackageIcon, TrashIcon } from '../../components/Icons';
import { Spinner } from '../../components/Spinner';
import { formatPurchaseDate, shippingLabel } from '../../components/WishlistItemDialog';
import { formatDollars } from '../../format';
import type { Row } from './useWishlistEditor';

/** One item of the list: opens its modal; the owner can remove it until it is bought. */
export function WishlistRow({
  row,
  canRemove,
  onOpen,
  onRemove,
}: {
  row: Row;
  canRemove: boolean;
  onOpen: () => void;
  onRemove: () => void;
}) {
  const date = formatPurchaseDate(row.purchasedAt);
  const shipping =
    row.shippingPrice === 'Calculated'
      ? ' · shipping calculated'
      : row.shippingPrice === 0
        ? ' · free shipping'
        : ` + ${shippingLabel(row.shippingPrice)} shipping`;
  const classes = ['wish-row', row.purchased ? 'is-purchased' : '', row.pending ? 'is-pending' : ''].filter(Boolean);
  return (
    <li className={classes.join(' ')} aria-busy={row.pending || undefined}>
      <button type="button" className="wish-row__main" onClick={onOpen} aria-haspopup="dialog">
        <span className="wish-row__image">
          {row.imageUrl ? <CachedImage src={row.imageUrl} width={72} height={72} /> : <PackageIcon size={24} />}
        </span>
        <span className="wish-row__text">
          <span className="wish-row__title">{row.title}</span>
          <span className="wish-row__price">
            {formatDollars(row.price)}
            <span className="wish-row__shipping">{shipping}</span>
          </span>
          {row.purchased ? (
            <span className="wish-row__status">
              <span className="wish-row__badge">
                <CheckIcon size={14} />
                <span>Purchased</span>
              </span>
              {date ? <span className="wish-row__date">on {date}</span> : null}
            </span>
          ) : null}
        </span>
      </button>
      {row.pending ? (
        <span className="wish-row__side">
          <Spinner size={20} label={`Saving ${row.title}`} />
        </span>
      ) : canRemove ? (
        <button type="button" className="btn btn--ghost btn--icon wish-row__remove" aria-label={`Remove ${row.title}`} onClick={onRemove}>
          <TrashIcon size={20} />
        </button>
      ) : null}
    </li>
  );
}
