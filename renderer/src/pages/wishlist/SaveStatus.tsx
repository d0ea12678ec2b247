import { CheckIcon } from '../../components/Icons';
import { Spinner } from '../../components/Spinner';
import type { SaveState } from './useWishlistEditor';

/** The owner's autosave: saving, saved, or what went wrong. */
export function SaveStatus({ state }: { state: SaveState }) {
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
