import { useEffect, useState } from 'react';
import { useAtomValue } from 'jotai';
import { useParams, useSearchParams } from 'react-router-dom';
import { ApiError, errorMessage } from '../api/client';
import type { SearchProduct, WishlistView } from '../api/types';
import { WISHLIST_LOAD_ERROR, WISHLIST_MAX, useWishlistQuery } from '../api/wishlists';
import { ConfirmPopup } from '../components/ConfirmPopup';
import { HeartListIcon, PackageIcon } from '../components/Icons';
import { MessagePopup } from '../components/MessagePopup';
import { ProductSearch } from '../components/ProductSearch';
import { PageSpinner } from '../components/Spinner';
import { usePageTitle } from '../components/usePageTitle';
import { WishlistItemDialog, productDetails, wishlistItemDetails, type ItemDialogMode } from '../components/WishlistItemDialog';
import { formatDollars } from '../format';
import { balanceDialogOpenAtom, useOpenBalanceDialog } from '../state/balance';
import { balanceAtom, userAtom } from '../state/session';
import { SaveStatus } from './wishlist/SaveStatus';
import { ShareWishlist } from './wishlist/ShareWishlist';
import { usePurchase } from './wishlist/usePurchase';
import { useWishlistEditor } from './wishlist/useWishlistEditor';
import { WishlistRow } from './wishlist/WishlistRow';
import './WishlistPage.css';

/** /wishlist/{username}: anyone's list, visitors included; only the owner edits. */
export function WishlistPage() {
  const { username = '' } = useParams();
  const user = useAtomValue(userAtom);
  const viewerId = user?._id ?? null;
  const { data: wishlist, error, isPending, refetch } = useWishlistQuery(username, viewerId);

  const owner = wishlist?.username ?? username;
  const isOwner = user !== null && user.username.toLowerCase() === owner.toLowerCase();
  usePageTitle(isOwner ? 'Your wishlist' : `@${owner}'s wishlist`);

  if (isPending) return <PageSpinner label="Loading wishlist" />;
  if (!wishlist) {
    const notFound = error instanceof ApiError && error.status === 404;
    const message = notFound ? errorMessage(error, 'User not found') : WISHLIST_LOAD_ERROR;
    return (
      <div className="card empty-state wishlist__state">
        <div className="empty-state__icon">
          <HeartListIcon size={28} />
        </div>
        <h1 className="wishlist__state-title">{notFound ? message : 'Wishlist unavailable'}</h1>
        <p className="muted" role="alert">
          {notFound ? 'Check the username and try again.' : message}
        </p>
        {notFound ? null : (
          <button type="button" className="btn btn--primary" onClick={() => void refetch()}>
            Try again
          </button>
        )}
      </div>
    );
  }
  // A fresh view per list and viewer: nothing of one leaks into the next.
  return <Wishlist key={`${username.toLowerCase()}|${viewerId ?? ''}`} wishlist={wishlist} viewerId={viewerId} isOwner={isOwner} />;
}

type Open = { kind: 'item'; id: string } | { kind: 'product'; product: SearchProduct } | null;

function Wishlist({ wishlist, viewerId, isOwner }: { wishlist: WishlistView; viewerId: string | null; isOwner: boolean }) {
  const user = useAtomValue(userAtom);
  const balance = useAtomValue(balanceAtom);
  const balanceDialogOpen = useAtomValue(balanceDialogOpenAtom);
  const openBalanceDialog = useOpenBalanceDialog();
  const [params, setParams] = useSearchParams();
  const username = wishlist.username;
  const editor = useWishlistEditor(username, viewerId, wishlist.items);
  const purchase = usePurchase(username);
  const { rows } = editor;

  // An item named in the address (`?item=`, after logging in to buy it) opens at once.
  const [open, setOpen] = useState<Open>(() => {
    const id = params.get('item');
    return id && wishlist.items.some((i) => i._id === id) ? { kind: 'item', id } : null;
  });

  // The `?item=` has done its work: drop it so a reload or a share does not reopen it.
  useEffect(() => {
    if (!params.has('item')) return;
    const next = new URLSearchParams(params);
    next.delete('item');
    setParams(next, { replace: true });
  }, [params, setParams]);

  function remove(id: string) {
    editor.remove(id);
    if (open?.kind === 'item' && open.id === id) setOpen(null);
  }

  const openItem = open?.kind === 'item' ? rows.find((row) => row._id === open.id) : undefined;
  const mode: ItemDialogMode = isOwner ? 'owner' : user ? 'buyer' : 'visitor';
  // One modal at a time: the item modal waits while the confirm, an error or the balance modal is up.
  const itemDialogVisible = !purchase.confirm && !purchase.error && !balanceDialogOpen;
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

      {isOwner ? <SaveStatus state={editor.status} /> : null}

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
                {WISHLIST_MAX - rows.length} of {WISHLIST_MAX} spots left. Press Send Now to add an item, or open it for a closer look.
              </p>
            </div>
            {editor.notice ? (
              <div className="alert alert--info" role="status">
                {editor.notice}
              </div>
            ) : null}
            <ProductSearch
              selectLabel="Send Now"
              onSelect={(product) => void editor.add(product)}
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
          onPurchase={() => purchase.start(openItem)}
          onAddFunds={openBalanceDialog}
        />
      ) : null}
      {open?.kind === 'product' && itemDialogVisible ? (
        <WishlistItemDialog
          item={productDetails(open.product)}
          mode="select"
          onClose={() => setOpen(null)}
          onSelect={() => {
            if (editor.add(open.product)) setOpen(null);
          }}
          busy={full}
        />
      ) : null}
      {purchase.confirm ? (
        <ConfirmPopup
          message={`Are you sure you want to buy ${purchase.confirm.title} for ${formatDollars(purchase.confirm.total)}?`}
          primaryLabel="Yes"
          onPrimary={purchase.buy}
          secondaryLabel="No"
          onSecondary={purchase.cancel}
          busy={purchase.busy}
        />
      ) : null}
      {purchase.error ? <MessagePopup title="Purchase" message={purchase.error} onClose={purchase.dismissError} /> : null}
    </div>
  );
}
