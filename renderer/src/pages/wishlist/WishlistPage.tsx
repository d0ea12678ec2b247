import { useEffect, useState } from 'react';
import { useAtomValue } from 'jotai';
import { useParams, useSearchParams } from 'react-router-dom';
import { GIFTS_PAUSED } from '../../../../api/contract/texts';
import { ApiError, errorMessage } from '../../api/client';
import type { SearchProduct, WishlistItemView, WishlistView } from '../../api/types';
import { ARCHIVE_FAILED, WISHLIST_LOAD_ERROR, WISHLIST_MAX, useArchiveWishlistItem, useWishlistQuery } from '../../api/wishlists';
import { ConfirmPopup } from '../../components/ConfirmPopup';
import { MessagePopup } from '../../components/MessagePopup';
import { ProductSearch } from '../../components/ProductSearch';
import { PageSpinner } from '../../components/Spinner';
import { UnavailablePage } from '../../components/UnavailablePage';
import { usePageTitle } from '../../components/usePageTitle';
import { WishlistItemDialog, productDetails, wishlistItemDetails, type ItemDialogMode } from '../../components/WishlistItemDialog';
import { formatDollars } from '../../format';
import { balanceDialogOpenAtom, useOpenBalanceDialog } from '../../state/balance';
import { balanceAtom, userAtom } from '../../state/session';
import { SaveStatus } from './SaveStatus';
import { ShareWishlist } from './ShareWishlist';
import { usePurchase } from './usePurchase';
import { useWishlistEditor, type Row } from './useWishlistEditor';
import { WishlistEmpty, WishlistHeading, WishlistPaused } from './WishlistViews';
import { WishlistRow } from './WishlistRow';
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
    return notFound ? (
      <UnavailablePage
        reason="not-found"
        title={errorMessage(error, 'User not found')}
        message={`No one goes by @${username}. Check the username and try again.`}
        username={username}
      />
    ) : (
      <UnavailablePage
        reason="error"
        title="Wishlist unavailable"
        message={WISHLIST_LOAD_ERROR}
        username={username}
        onRetry={() => void refetch()}
      />
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
  const archive = useArchiveWishlistItem(username, viewerId);
  const { rows } = editor;
  const received = isOwner ? wishlist.received : [];
  const archivingId = archive.isPending ? archive.variables : null;

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

  function moveToReceived(id: string) {
    if (archive.isPending || editor.status.kind === 'saving') return;
    archive.mutate(id, { onSuccess: () => setOpen((o) => (o?.kind === 'item' && o.id === id ? null : o)) });
  }

  const openItem: Row | undefined = open?.kind === 'item' ? [...rows, ...received].find((row) => row._id === open.id) : undefined;
  const openIsOnList = openItem !== undefined && rows.includes(openItem);
  const paused = wishlist.giftsPaused && !isOwner;
  const mode: ItemDialogMode = isOwner ? 'owner' : paused ? 'paused' : user ? 'buyer' : 'visitor';
  // One modal at a time: the item modal waits while the confirm, an error or the balance modal is up.
  const itemDialogVisible = !purchase.confirm && !purchase.error && !balanceDialogOpen;
  const purchasedCount = rows.filter((row) => row.purchased).length;
  const full = rows.length >= WISHLIST_MAX;

  return (
    <div className="wishlist">
      <header className="wishlist__header">
        <WishlistHeading
          title={isOwner ? 'Your wishlist' : `@${username}'s wishlist`}
          counts={`${rows.length} of ${WISHLIST_MAX} items${purchasedCount ? ` · ${purchasedCount} purchased` : ''}${received.length ? ` · ${received.length} received` : ''}`}
        />
        {isOwner ? <ShareWishlist username={username} /> : null}
      </header>

      {isOwner ? <SaveStatus state={editor.status} /> : null}
      {paused ? <WishlistPaused text={GIFTS_PAUSED} /> : null}

      {rows.length === 0 ? (
        <WishlistEmpty
          title={isOwner ? 'Your wishlist is empty' : 'Nothing here yet'}
          message={
            isOwner
              ? `Search the shop below and add up to ${WISHLIST_MAX} items you would love to receive.`
              : `@${username} has not added any items yet.`
          }
        />
      ) : (
        <ul className="wishlist__list" aria-label="Wishlist items">
          {rows.map((row, index) => (
            <WishlistRow
              key={row._id}
              row={row}
              index={index}
              canRemove={isOwner && !row.purchased}
              onOpen={() => setOpen({ kind: 'item', id: row._id })}
              onRemove={() => remove(row._id)}
              onArchive={isOwner && row.purchased && !row.pending ? () => moveToReceived(row._id) : undefined}
              archiving={archivingId === row._id}
            />
          ))}
        </ul>
      )}

      {isOwner ? (
        full ? (
          <p className="wishlist__full card">
            Your wishlist is full: {WISHLIST_MAX} of {WISHLIST_MAX} items.{' '}
            {purchasedCount ? 'Remove an item, or move a purchased one to Received, to add another.' : 'Remove an item to add another.'}
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

      {received.length > 0 ? <ReceivedSection items={received} onOpen={(id) => setOpen({ kind: 'item', id })} /> : null}

      {openItem && itemDialogVisible ? (
        <WishlistItemDialog
          item={wishlistItemDetails(openItem)}
          mode={openItem.pending ? 'owner' : mode}
          balance={balance}
          ownerUsername={username}
          onClose={() => setOpen(null)}
          onPurchase={() => purchase.start(openItem)}
          note={purchase.noteFor(openItem._id)}
          onNoteChange={(text) => purchase.setNote(openItem._id, text)}
          onAddFunds={openBalanceDialog}
          card={
            user
              ? {
                  userId: user._id,
                  busy: purchase.busy || purchase.charging,
                  error: purchase.cardError,
                  onBuy: (payment) => void purchase.chargeAndBuy(openItem, payment),
                }
              : undefined
          }
          onArchive={isOwner && openIsOnList && openItem.purchased && !openItem.pending ? () => moveToReceived(openItem._id) : undefined}
          busy={archive.isPending}
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
      {archive.error ? (
        <MessagePopup title="Received" message={errorMessage(archive.error, ARCHIVE_FAILED)} onClose={archive.reset} />
      ) : null}
    </div>
  );
}

/** The owner's 'Received' section: bought items moved off the list, which no longer count toward the seven. */
function ReceivedSection({ items, onOpen }: { items: readonly WishlistItemView[]; onOpen: (id: string) => void }) {
  return (
    <section className="wishlist__received" aria-labelledby="wishlist-received-title">
      <div className="wishlist__received-head">
        <h2 id="wishlist-received-title">Received</h2>
        <p className="muted small">Gifts you received. Only you see them, and they do not count toward your {WISHLIST_MAX} items.</p>
      </div>
      <ul className="wishlist__list" aria-label="Received items">
        {items.map((item) => (
          <WishlistRow key={item._id} row={item} received canRemove={false} onOpen={() => onOpen(item._id)} onRemove={() => undefined} />
        ))}
      </ul>
    </section>
  );
}
