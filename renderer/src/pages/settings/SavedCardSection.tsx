import {
  CARD_NOT_REMOVED,
  SAVED_CARD_INTRO,
  SAVED_CARD_LOAD_FAILED,
  SAVED_CARD_NONE,
  SAVED_CARD_REMOVE,
  SAVED_CARD_TITLE,
  savedCardEnding,
} from '../../../../api/contract/account-texts';
import { errorMessage } from '../../api/client';
import { useRemoveSavedCard, useSavedCard } from '../../api/wallet';
import { Spinner } from '../../components/Spinner';
import './SavedCardSection.css';

/** Settings → Payouts, the card saved when paying by card: its last 4 digits and 'Remove', or none. */
export function SavedCardSection({ userId }: { userId: string }) {
  const card = useSavedCard(userId);
  const remove = useRemoveSavedCard(userId);

  return (
    <section className="card saved-card" aria-labelledby="settings-saved-card" aria-busy={card.isPending}>
      <h2 id="settings-saved-card" className="settings__section-title saved-card__title">
        {SAVED_CARD_TITLE}
      </h2>
      <p className="field-hint">{SAVED_CARD_INTRO}</p>
      {card.isPending ? (
        <Spinner label="Loading your saved card" />
      ) : card.isError ? (
        <div className="saved-card__row">
          <p className="field-error" role="alert">
            {SAVED_CARD_LOAD_FAILED}
          </p>
          <button type="button" className="btn btn--sm" onClick={() => void card.refetch()}>
            Try again
          </button>
        </div>
      ) : card.data ? (
        <div className="saved-card__row">
          <span className="saved-card__name">{savedCardEnding(card.data.last4)}</span>
          <button
            type="button"
            className="btn btn--sm btn--soft"
            disabled={remove.isPending}
            aria-label={`${SAVED_CARD_REMOVE} ${savedCardEnding(card.data.last4)}`}
            onClick={() => remove.mutate()}
          >
            {remove.isPending ? <Spinner size={16} label="Removing your card" /> : null}
            {SAVED_CARD_REMOVE}
          </button>
        </div>
      ) : (
        <p className="saved-card__none">{SAVED_CARD_NONE}</p>
      )}
      {remove.isError ? (
        <p className="field-error" role="alert">
          {errorMessage(remove.error, CARD_NOT_REMOVED)}
        </p>
      ) : null}
    </section>
  );
}
