import { useEffect, useRef, useState } from 'react';
import { useAtomValue } from 'jotai';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { ApiError, errorMessage, isAbortError } from '../api/client';
import type { SearchProduct, WishlistItemView, WishlistView } from '../api/types';
import {
  PURCHASE_FAILED,
  SAVE_FAILED,
  WISHLIST_LOAD_ERROR,
  WISHLIST_MAX,
  getWishlist,
  purchaseWishlistItem,
  updateWishlist,
} from '../api/wishlists';
import { CachedImage } from '../components/CachedImage';
import { ConfirmPopup } from '../components/ConfirmPopup';
import { COPY_FAILED, COPY_OK, useCopy } from '../components/CopyLink';
import { CheckIcon, HeartListIcon, PackageIcon, ShareIcon, TrashIcon } from '../components/Icons';
import { MessagePopup } from '../components/MessagePopup';
import { ProductSearch } from '../components/ProductSearch';
import { PageSpinner, Spinner } from '../components/Spinner';
import { usePageTitle } from '../components/usePageTitle';
import {
  WishlistItemDialog,
  formatPurchaseDate,
  productDetails,
  shippingLabel,
  wishlistItemDetails,
  type ItemDialogMode,
} from '../components/WishlistItemDialog';
import { formatDollars } from '../format';
import { randomUuid } from '../ids';
import { productShipping, productTotal } from '../productPrice';
import { balanceDialogOpenAtom, useOpenBalanceDialog, useRefreshBalance } from '../state/balance';
import { useCacheWishlistImages } from '../state/imageCache';
import { balanceAtom, userAtom } from '../state/session';
import './WishlistPage.css';

/** Shown when the owner adds an item that is already on the list (and not yet bought). */
export const ALREADY_ON_LIST = 'This item is already on your wishlist.';

const enc = encodeURIComponent;

export function wishlistPath(username: string): string {
  return `/wishlist/${enc(username)}`;
}

export function wishlistUrl(username: string): string {
  return new URL(wishlistPath(username), window.location.origin).toString();
}

type LoadState =
  | { kind: 'loading'; key: string }
  | { kind: 'ready'; key: string; wishlist: WishlistView }
  | { kind: 'error'; key: string; message: string; notFound: boolean };

export function WishlistPage() {
  const { username = '' } = useParams();
  const user = useAtomValue(userAtom);
  const [attempt, setAttempt] = useState(0);
  const key = `${username.toLowerCase()}|${user?._id ?? ''}|${attempt}`;
  const [state, setState] = useState<LoadState>({ kind: 'loading', key });
  const current: LoadState = state.key === key ? state : { kind: 'loading', key };

  useEffect(() => {
    const controller = new AbortController();
    getWishlist(username, controller.signal).then(
      ({ userWishlist }) => setState({ kind: 'ready', key, wishlist: userWishlist }),
      (err: unknown) => {
        if (isAbortError(err) || controller.signal.aborted) return;
        const notFound = err instanceof ApiError && err.status === 404;
        setState({ kind: 'error', key, notFound, message: notFound ? errorMessage(err, 'User not found') : WISHLIST_LOAD_ERROR });
      },
    );
    return () => controller.abort();
  }, [username, key]);

  const owner = current.kind === 'ready' ? current.wishlist.username : username;
  const isOwner = user !== null && user.username.toLowerCase() === owner.toLowerCase();
  usePageTitle(isOwner ? 'Your wishlist' : `@${owner}'s wishlist`);

  if (current.kind === 'loading') return <PageSpinner label="Loading wishlist" />;
  if (current.kind === 'error') {
    return (
      <div className="card empty-state wishlist__state">
        <div className="empty-state__icon">
          <HeartListIcon size={28} />
        </div>
        <h1 className="wishlist__state-title">{current.notFound ? current.message : 'Wishlist unavailable'}</h1>
        <p className="muted" role="alert">
          {current.notFound ? 'Check the username and try again.' : current.message}
        </p>
        {current.notFound ? null : (
          <button type="button" className="btn btn--primary" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        )}
      </div>
    );
  }
  return <Wishlist key={current.key} initial={current.wishlist} isOwner={isOwner} />;
}

/** An item on screen: the server's, or one the owner just added that is being saved. */
type Row = WishlistItemView & { pending?: boolean };

type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'error'; message: string };

type Open = { kind: 'item'; id: string } | { kind: 'product'; product: SearchProduct } | null;

/** A search result as a row to show at once, while the list is saved. */
function pendingRow(product: SearchProduct): Row {
  const option = product.shippingOptions[0];
  const shipping = productShipping(product) ?? 0;
  const imageUrl = product.image?.imageUrl ?? '';
  return {
    _id: `pending-${randomUuid()}`,
    itemId: product.itemId,
    name: product.title,
    title: product.title,
    price: Number(product.price.value),
    shippingPrice: option?.shippingCostType === 'CALCULATED' ? 'Calculated' : shipping,
    shippingCost: shipping,
    total: productTotal(product),
    condition: product.condition,
    description: product.description,
    imageUrl,
    allImages: [imageUrl, ...product.additionalImages.map((i) => i.imageUrl)].filter(Boolean),
    purchased: false,
    pending: true,
  };
}

function Wishlist({ initial, isOwner }: { initial: WishlistView; isOwner: boolean }) {
  const user = useAtomValue(userAtom);
  const balance = useAtomValue(balanceAtom);
  const balanceDialogOpen = useAtomValue(balanceDialogOpenAtom);
  const openBalanceDialog = useOpenBalanceDialog();
  const refreshBalance = useRefreshBalance();
  const cacheWishlistImages = useCacheWishlistImages();
  const navigate = useNavigate();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const username = initial.username;

  const [rows, setRows] = useState<Row[]>(initial.items);
  const [save, setSave] = useState<SaveState>({ kind: 'idle' });
  const [addNotice, setAddNotice] = useState<string | null>(null);
  // An item named in the address (`?item=`, after logging in to buy it) opens at once.
  const [open, setOpen] = useState<Open>(() => {
    const id = params.get('item');
    return id && initial.items.some((i) => i._id === id) ? { kind: 'item', id } : null;
  });
  const [confirm, setConfirm] = useState<{ item: WishlistItemView; key: string } | null>(null);
  const [purchasing, setPurchasing] = useState(false);
  const [purchaseError, setPurchaseError] = useState<string | null>(null);

  // The `?item=` has done its work: drop it so a reload or a share does not reopen it.
  useEffect(() => {
    if (!params.has('item')) return;
    const next = new URLSearchParams(params);
    next.delete('item');
    setParams(next, { replace: true });
  }, [params, setParams]);

  // ---- autosave: every change of the owner's list is saved; changes made during a save follow it.
  const latest = useRef<Row[]>(initial.items);
  const confirmed = useRef<Row[]>(initial.items);
  const saving = useRef(false);
  const dirty = useRef(false);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  function show(next: Row[]) {
    latest.current = next;
    setRows(next);
  }

  async function saveLoop() {
    if (saving.current) {
      dirty.current = true;
      return;
    }
    saving.current = true;
    setSave({ kind: 'saving' });
    try {
      do {
        dirty.current = false;
        const { userWishlist } = await updateWishlist(
          username,
          latest.current.map((row) => ({ itemId: row.itemId, _id: row.pending ? undefined : row._id })),
        );
        confirmed.current = userWishlist.items;
        if (!alive.current) return;
        if (!dirty.current) show(userWishlist.items);
        void cacheWishlistImages(username, userWishlist.items.map((item) => item.imageUrl));
      } while (dirty.current);
      setSave({ kind: 'saved' });
    } catch (err) {
      if (!alive.current) return;
      // Undo what could not be saved: back to the list the server holds.
      dirty.current = false;
      show(confirmed.current);
      setSave({ kind: 'error', message: errorMessage(err, SAVE_FAILED) });
    } finally {
      saving.current = false;
    }
  }

  function edit(next: Row[]) {
    setAddNotice(null);
    show(next);
    void saveLoop();
  }

  function add(product: SearchProduct): boolean {
    const list = latest.current;
    if (list.length >= WISHLIST_MAX) return false;
    if (list.some((row) => !row.purchased && row.itemId === product.itemId)) {
      setAddNotice(ALREADY_ON_LIST);
      return false;
    }
    edit([...list, pendingRow(product)]);
    return true;
  }

  function remove(id: string) {
    edit(latest.current.filter((row) => row._id !== id || row.purchased));
    if (open?.kind === 'item' && open.id === id) setOpen(null);
  }

  // ---- buying (SPEC section 4): balance check, confirm, pay, then the conversation.
  async function reloadQuietly() {
    try {
      const { userWishlist } = await getWishlist(username);
      if (alive.current && !saving.current) {
        confirmed.current = userWishlist.items;
        show(userWishlist.items);
      }
    } catch {
      // the list on screen stays; the error popup already explains
    }
  }

  function startPurchase(item: WishlistItemView) {
    if (!user) {
      navigate('/login', { state: { from: `${location.pathname}?item=${enc(item._id)}` } });
      return;
    }
    if (balance < item.total) return; // the modal offers Add Funds instead
    setConfirm({ item, key: randomUuid() });
  }

  async function purchase() {
    if (!confirm || !user || purchasing) return;
    const { item, key } = confirm;
    setPurchasing(true);
    try {
      const { conversationId } = await purchaseWishlistItem(
        {
          wishlistUsername: username,
          purchaserUserId: user._id,
          itemId: item._id,
          lastMessage: `You received a gift from your wishlist: ${item.title}!`,
        },
        key,
      );
      await refreshBalance();
      navigate(`/messages/${enc(conversationId)}`);
    } catch (err) {
      setConfirm(null);
      setPurchasing(false);
      setPurchaseError(errorMessage(err, PURCHASE_FAILED));
      // Show what is true now: the item may be gone or bought, the balance may have moved.
      if (err instanceof ApiError && (err.status === 409 || err.status === 404)) void reloadQuietly();
      void refreshBalance(null);
    }
  }

  const openItem = open?.kind === 'item' ? rows.find((row) => row._id === open.id) : undefined;
  const mode: ItemDialogMode = isOwner ? 'owner' : user ? 'buyer' : 'visitor';
  // One modal at a time: the item modal waits while the confirm, an error or the balance modal is up.
  const itemDialogVisible = !confirm && !purchaseError && !balanceDialogOpen;
  const purchasedCount = rows.filter((row) => row.purchased).length;
  const full = rows.length >= WISHLIST_MAX;

  return (
    <div className="wishlist">
      <header className="wishlist__header">
        <div className="wishlist__heading">
          <span className="wishlist__icon" aria-hidden="true">
            <HeartListIcon size={26} />
          </span>
          <div>
            <p className="wishlist__eyebrow">Wishlist</p>
            <h1>{isOwner ? 'Your wishlist' : `@${username}'s wishlist`}</h1>
            <p className="muted small">
              {rows.length} of {WISHLIST_MAX} items
              {purchasedCount ? ` · ${purchasedCount} purchased` : ''}
            </p>
          </div>
        </div>
        {isOwner ? <ShareWishlist username={username} /> : null}
      </header>

      {isOwner ? <SaveStatus state={save} /> : null}

      {rows.length === 0 ? (
        <div className="card empty-state">
          <div className="empty-state__icon">
            <PackageIcon size={28} />
          </div>
          <h2>{isOwner ? 'Your wishlist is empty' : 'Nothing here yet'}</h2>
          <p className="muted">
            {isOwner
              ? `Search the shop below and add up to ${WISHLIST_MAX} items you would love to receive.`
              : `@${username} has not added any items yet.`}
          </p>
        </div>
      ) : (
        <ul className="wishlist__list" aria-label="Wishlist items">
          {rows.map((row) => (
            <WishlistRow
              key={row._id}
              row={row}
              canRemove={isOwner && !row.purchased}
              onOpen={() => setOpen({ kind: 'item', id: row._id })}
              onRemove={() => remove(row._id)}
            />
          ))}
        </ul>
      )}

      {isOwner ? (
        full ? (
          <p className="wishlist__full card">
            Your wishlist is full: {WISHLIST_MAX} of {WISHLIST_MAX} items. Remove an item to add another.
          </p>
        ) : (
          <section className="card wishlist__add" aria-labelledby="wishlist-add-title">
            <div>
              <h2 id="wishlist-add-title">Add an item</h2>
              <p className="muted small">
                {WISHLIST_MAX - rows.length} of {WISHLIST_MAX} spots left. Press Send Now to add an item, or open it for a
                closer look.
              </p>
            </div>
            {addNotice ? (
              <div className="alert alert--info" role="status">
                {addNotice}
              </div>
            ) : null}
            <ProductSearch
              selectLabel="Send Now"
              onSelect={(product) => void add(product)}
              onPreview={(product) => setOpen({ kind: 'product', product })}
            />
          </section>
        )
      ) : null}

      {openItem && itemDialogVisible ? (
        <WishlistItemDialog
          item={wishlistItemDetails(openItem)}
          mode={openItem.pending ? 'owner' : mode}
          balance={balance}
          ownerUsername={username}
          onClose={() => setOpen(null)}
          onPurchase={() => startPurchase(openItem)}
          onAddFunds={openBalanceDialog}
        />
      ) : null}
      {open?.kind === 'product' && itemDialogVisible ? (
        <WishlistItemDialog
          item={productDetails(open.product)}
          mode="select"
          onClose={() => setOpen(null)}
          onSelect={() => {
            if (add(open.product)) setOpen(null);
          }}
          busy={full}
        />
      ) : null}
      {confirm ? (
        <ConfirmPopup
          message={`Are you sure you want to buy ${confirm.item.title} for ${formatDollars(confirm.item.total)}?`}
          primaryLabel="Yes"
          onPrimary={() => void purchase()}
          secondaryLabel="No"
          onSecondary={() => setConfirm(null)}
          busy={purchasing}
        />
      ) : null}
      {purchaseError ? (
        <MessagePopup title="Purchase" message={purchaseError} onClose={() => setPurchaseError(null)} />
      ) : null}
    </div>
  );
}

function WishlistRow({
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

function SaveStatus({ state }: { state: SaveState }) {
  if (state.kind === 'error') {
    return (
      <div className="alert wishlist__save-error" role="alert">
        {state.message}
      </div>
    );
  }
  return (
    <p className="wishlist__save muted small" role="status" aria-live="polite">
      {state.kind === 'saving' ? (
        <>
          <Spinner size={14} label="Saving" />
          <span aria-hidden="true">Saving…</span>
        </>
      ) : state.kind === 'saved' ? (
        <>
          <CheckIcon size={16} />
          <span>All changes saved</span>
        </>
      ) : (
        <span>Changes save automatically.</span>
      )}
    </p>
  );
}

/** The owner's share action: copies the wishlist's address. */
function ShareWishlist({ username }: { username: string }) {
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
