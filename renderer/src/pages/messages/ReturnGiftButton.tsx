import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { GIFT_RETURNED, RETURN_GIFT, RETURN_GIFT_CONFIRM, RETURN_GIFT_FAILED } from '../../../../api/contract/texts';
import { ConfirmPopup } from '../../components/ConfirmPopup';
import { returnGift } from '../../api/conversations';
import { errorMessage } from '../../api/client';

/** 'Return this gift' on an anonymous gift the reader received: once, while it is on hold; the server says when it cannot. */
export function ReturnGiftButton({ conversationId, messageId }: { conversationId: string; messageId: string }) {
  // One key per gift shown: a retry after a network failure returns it at most once.
  const [key] = useState(() => crypto.randomUUID());
  const [confirming, setConfirming] = useState(false);
  const giveBack = useMutation({
    // The balance left with the gift is pushed (`balance`).
    mutationFn: () => returnGift(conversationId, messageId, key),
  });
  if (giveBack.isSuccess) return <p className="gift-msg__text">{GIFT_RETURNED}</p>;
  return (
    <span className="gift-msg__actions">
      <button type="button" className="msg__action" onClick={() => setConfirming(true)} disabled={giveBack.isPending}>
        {RETURN_GIFT}
      </button>
      {confirming ? (
        <ConfirmPopup
          message={RETURN_GIFT_CONFIRM}
          primaryLabel="Return"
          secondaryLabel="Cancel"
          onSecondary={() => setConfirming(false)}
          busy={giveBack.isPending}
          onPrimary={() => giveBack.mutate(undefined, { onSettled: () => setConfirming(false) })}
        />
      ) : null}
      {giveBack.isError ? (
        <span className="msg__meta msg__meta--failed" role="alert">
          {errorMessage(giveBack.error, RETURN_GIFT_FAILED)}
        </span>
      ) : null}
    </span>
  );
}
