import { GIFTS_PAUSED } from '../../../api/contract/texts';
import type { SearchProduct, WishlistItemView } from '../api/types';
import { ADD_MONEY } from '../api/wishlists';
import { formatDate, formatDollars } from '../format';
import { productShipping, productTotal } from '../productPrice';
import { Dialog } from './Dialog';
import { ImageCarousel } from './ImageCarousel';
import { CheckIcon } from './Icons';
import { NoteField } from './NoteField';
import { CardGive } from './card/CardGive';
import { shortfallOf, type CardPayment } from './card/useCardDeposit';
import './WishlistItemDialog.css';

/** What the item modal shows, from a wishlist item or from a search result. */
export interface ItemDetails {
  name: string;
  /** Dollars. */
  price: number;
  /** Dollars, or 'Calculated' when the marketplace calculates shipping. */
  shippingPrice: number | 'Calculated';
  /** Dollars a purchase charges in all (price plus shipping). */
  total: number;
  condition: string;
  description: string;
  images: string[];
  purchased: boolean;
  /** ISO date of the purchase, when known. */
  purchasedAt?: string;
}

export function wishlistItemDetails(item: WishlistItemView): ItemDetails {
  return {
    name: item.name || item.title,
    price: item.price,
    shippingPrice: item.shippingPrice,
    total: item.total,
    condition: item.condition,
    description: item.description,
    images: item.allImages.length ? item.allImages : item.imageUrl ? [item.imageUrl] : [],
    purchased: item.purchased,
    purchasedAt: item.purchasedAt,
  };
}

export function productDetails(product: SearchProduct): ItemDetails {
  const option = product.shippingOptions[0];
  const images = [product.image?.imageUrl, ...product.additionalImages.map((i) => i.imageUrl)].filter(
    (url): url is string => typeof url === 'string' && url.length > 0,
  );
  return {
    name: product.title,
    price: Number(product.price.value),
    shippingPrice: option?.shippingCostType === 'CALCULATED' ? 'Calculated' : (productShipping(product) ?? 0),
    total: productTotal(product),
    condition: product.condition,
    description: product.description,
    images: [...new Set(images)],
    purchased: false,
  };
}

/** 'Jan 5, 2026' from an ISO date, or '' when there is none. */
export function formatPurchaseDate(iso: string | undefined): string {
  if (!iso) return '';
  const time = Date.parse(iso);
  return Number.isFinite(time) ? formatDate(time) : '';
}

export function shippingLabel(shippingPrice: number | 'Calculated'): string {
  if (shippingPrice === 'Calculated') return 'Calculated';
  return shippingPrice === 0 ? 'Free' : formatDollars(shippingPrice);
}

/**
 * Who is looking: the list's owner (Close), another signed-in user (Purchase or Add Funds), a
 * visitor (Purchase leads to login), the owner picking a search result (Select), or anyone else
 * while the owner has paused gifts (Close, and why there is nothing to buy).
 */
export type ItemDialogMode = 'owner' | 'buyer' | 'visitor' | 'select' | 'paused';

interface WishlistItemDialogProps {
  item: ItemDetails;
  mode: ItemDialogMode;
  /** The buyer's balance in dollars (mode 'buyer'). */
  balance?: number;
  /** The wishlist owner's username, for the visitor's hint. */
  ownerUsername?: string;
  onClose: () => void;
  onPurchase?: () => void;
  onAddFunds?: () => void;
  /** A buyer short of the total: the card pays what is missing and the item is bought, in one step. */
  card?: { userId: string; busy: boolean; error: string | null; onBuy: (payment: CardPayment) => void };
  onSelect?: () => void;
  /** The owner moves a purchased item to their 'Received' section. */
  onArchive?: () => void;
  /** Disables the actions (a save or a purchase is under way). */
  busy?: boolean;
  /** The buyer's note to the owner (mode 'buyer'): shown as a field when `onNoteChange` is given. */
  note?: string;
  onNoteChange?: (note: string) => void;
}

/** The item modal: pictures, name, price, shipping, condition, description and the spec's buttons. */
export function WishlistItemDialog({
  item,
  mode,
  balance = 0,
  ownerUsername,
  onClose,
  onPurchase,
  onAddFunds,
  card,
  onSelect,
  onArchive,
  busy = false,
  note: giftNote = '',
  onNoteChange,
}: WishlistItemDialogProps) {
  const short = mode === 'buyer' && !item.purchased && balance < item.total;
  const oneStep = short && card !== undefined;
  const date = formatPurchaseDate(item.purchasedAt);
  const showTotal = item.shippingPrice !== 0 && !item.purchased;

  const body = (
    <>
      <dl className="item-dialog__facts">
        <div>
          <dt>Shipping</dt>
          <dd>{shippingLabel(item.shippingPrice)}</dd>
        </div>
        {item.condition ? (
          <div>
            <dt>Condition</dt>
            <dd>{item.condition}</dd>
          </div>
        ) : null}
        {showTotal ? (
          <div>
            <dt>Total</dt>
            <dd>{formatDollars(item.total)}</dd>
          </div>
        ) : null}
      </dl>
      {item.shippingPrice === 'Calculated' && !item.purchased ? (
        <p className="muted small">Shipping is calculated by the seller; the total includes its estimate.</p>
      ) : null}
      {item.description ? (
        <div className="item-dialog__description">
          <h3>Description</h3>
          <p>{item.description}</p>
        </div>
      ) : null}
      {oneStep ? (
        <div className="item-dialog__card">
          <CardGive
            userId={card.userId}
            amount={item.total}
            charge={shortfallOf(item.total, balance)}
            busy={card.busy}
            canGive={() => true}
            onGive={card.onBuy}
          />
        </div>
      ) : null}
    </>
  );

  // The item's state ('Purchased on…') and what the action needs said ('Add money…', the balance,
  // 'Log in…') sit with the buttons, so a modal that scrolls never hides them below the fold.
  const buying = (mode === 'buyer' || mode === 'visitor') && !item.purchased;
  const note = item.purchased ? (
    <div className="item-dialog__note">
      <p className="item-dialog__purchased" role="status">
        <CheckIcon size={18} />
        <span>Purchased</span>
        {date ? <span className="item-dialog__date">on {date}</span> : null}
      </p>
    </div>
  ) : oneStep ? (
    // The card step scrolls with the item; why it is there, and a decline, stay with the buttons.
    <div className="item-dialog__note">
      {card.error ? (
        <div className="alert" role="alert">
          {card.error}
        </div>
      ) : null}
      <p className="muted small">Your balance: {formatDollars(balance)}. Pay the rest by card below.</p>
    </div>
  ) : buying ? (
    <div className="item-dialog__note">
      {short ? (
        <div className="alert" role="alert">
          {ADD_MONEY}
        </div>
      ) : null}
      {mode === 'buyer' ? <p className="muted small">Your balance: {formatDollars(balance)}</p> : null}
      {mode === 'visitor' ? <p className="muted small">Log in to buy this item{ownerUsername ? ` for @${ownerUsername}` : ''}.</p> : null}
    </div>
  ) : mode === 'paused' ? (
    <div className="item-dialog__note">
      <p className="muted small">{GIFTS_PAUSED}</p>
    </div>
  ) : null;

  let action = null;
  if (item.purchased && mode === 'owner' && onArchive) {
    action = (
      <button type="button" className="btn btn--primary" onClick={onArchive} disabled={busy}>
        Move to Received
      </button>
    );
  } else if (!item.purchased) {
    if (mode === 'select') {
      action = (
        // The same action as the search list's 'Send Now' (add it to the wishlist): one name for it.
        <button type="button" className="btn btn--primary" onClick={onSelect} disabled={busy}>
          Send Now
        </button>
      );
    } else if (oneStep) {
      action = null;
    } else if (mode === 'buyer' && short) {
      action = (
        <button type="button" className="btn btn--gradient" onClick={onAddFunds} disabled={busy}>
          Add Funds
        </button>
      );
    } else if (mode === 'buyer' || mode === 'visitor') {
      action = (
        <button type="button" className="btn btn--gradient" onClick={onPurchase} disabled={busy}>
          Purchase
        </button>
      );
    }
  }

  return (
    <Dialog
      className="item-dialog"
      media={<ImageCarousel images={item.images} label={item.name} />}
      title={item.name}
      message={<span className="item-dialog__price">{formatDollars(item.price)}</span>}
      body={body}
      onDismiss={onClose}
    >
      {note}
      {mode === 'buyer' && !item.purchased && onNoteChange ? (
        // With the buttons, as the balance is: the note goes with the action.
        <div className="item-dialog__note">
          <NoteField value={giftNote} onChange={onNoteChange} disabled={busy} />
        </div>
      ) : null}
      <button type="button" className="btn" onClick={onClose} data-autofocus>
        Close
      </button>
      {action}
    </Dialog>
  );
}
