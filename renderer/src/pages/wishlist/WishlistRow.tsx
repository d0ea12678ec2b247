import { itemThumbUrl } from '../../../../api/contract/item-images';
import { CachedImage } from '../../components/CachedImage';
import { CheckIcon, GiftIcon, TrashIcon } from '../../components/Icons';
import { Spinner } from '../../components/Spinner';
import { formatPurchaseDate, shippingLabel } from '../../components/WishlistItemDialog';
import { formatDollars } from '../../format';
import type { Row } from './useWishlistEditor';
import { rowImageLoading, WishRowBody } from './WishlistViews';

/**
 * One item of the list: opens its modal; the owner can remove it until it is bought, and move it
 * to 'Received' once it is (`onArchive`). A `received` row is one of the 'Received' section.
 */
export function WishlistRow({
  row,
  canRemove,
  onOpen,
  onRemove,
  onArchive,
  archiving = false,
  received = false,
  index,
}: {
  row: Row;
  canRemove: boolean;
  onOpen: () => void;
  onRemove: () => void;
  onArchive?: () => void;
  archiving?: boolean;
  received?: boolean;
  /** The row's place in its list: the first pictures load first. */
  index?: number;
}) {
  const date = formatPurchaseDate(row.purchasedAt);
  const shipping =
    row.shippingPrice === 'Calculated'
      ? ' · shipping calculated'
      : row.shippingPrice === 0
        ? ' · free shipping'
        : ` + ${shippingLabel(row.shippingPrice)} shipping`;
  const classes = [
    'wish-row',
    row.purchased ? 'is-purchased' : '',
    row.pending ? 'is-pending' : '',
    received ? 'is-received' : '',
    onArchive ? 'has-archive' : '',
  ].filter(Boolean);
  return (
    <li className={classes.join(' ')} aria-busy={row.pending || archiving || undefined}>
      <button type="button" className="wish-row__main" onClick={onOpen} aria-haspopup="dialog">
        <WishRowBody
          image={
            row.imageUrl ? (
              <CachedImage
                src={row.imageUrl}
                uncached={itemThumbUrl(row.imageUrl)}
                width={72}
                height={72}
                {...(index === undefined ? {} : rowImageLoading(index))}
              />
            ) : undefined
          }
          title={row.title}
          price={received ? undefined : formatDollars(row.price)}
          shipping={shipping}
        >
          {row.purchased ? (
            <span className="wish-row__status">
              <span className="wish-row__badge">
                {received ? <GiftIcon size={14} /> : <CheckIcon size={14} />}
                <span>{received ? 'Received' : 'Purchased'}</span>
              </span>
              {date ? <span className="wish-row__date">on {date}</span> : null}
            </span>
          ) : null}
        </WishRowBody>
      </button>
      {row.pending || archiving ? (
        <span className="wish-row__side">
          <Spinner size={20} label={archiving ? `Moving ${row.title} to Received` : `Saving ${row.title}`} />
        </span>
      ) : onArchive ? (
        <button type="button" className="btn btn--soft btn--sm wish-row__archive" onClick={onArchive}>
          Move to Received
        </button>
      ) : canRemove ? (
        <button type="button" className="btn btn--ghost btn--icon wish-row__remove" aria-label={`Remove ${row.title}`} onClick={onRemove}>
          <TrashIcon size={20} />
        </button>
      ) : null}
    </li>
  );
}
