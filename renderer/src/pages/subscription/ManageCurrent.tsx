import { useState } from 'react';
import type { SubscriptionInfo } from '../../../../api/contract/subscriptions';
import { useCancelSubscription } from '../../api/subscriptions';
import { ConfirmPopup } from '../../components/ConfirmPopup';
import { ChatIcon, VerifiedIcon } from '../../components/Icons';
import { formatDollars } from '../../format';
import { formatDay } from './dates';
import { subscriptionErrorText, type SubscribeInput } from './useSubscribe';

interface ManageCurrentProps {
  userId: string;
  stripeCustomerId: string | null;
  info: SubscriptionInfo;
  price: number;
  /** Resume (canceled, not ended): create-subscription again, no charge. */
  onResume: (input: SubscribeInput) => void;
  resuming: boolean;
  resumeError: string | null;
}

/** The subscriber's view: status, renewal or end date, the community, Cancel or Resume. */
export function ManageCurrent({ userId, stripeCustomerId, info, price, onResume, resuming, resumeError }: ManageCurrentProps) {
  const cancel = useCancelSubscription(userId);
  const [confirming, setConfirming] = useState(false);
  const ending = info.cancelAtPeriodEnd || info.status === 'canceled';
  const endDate = info.subscriptionEndDate ? formatDay(info.subscriptionEndDate) : null;
  const paidBy = info.paymentMethod === 'balance' ? 'your Giftlink balance' : 'card';
  const error = cancel.isError ? subscriptionErrorText(cancel.error) : resumeError;

  return (
    <section className="card sub-current" aria-labelledby="sub-current-title">
      <div className="sub-product__head">
        <span className="sub-product__badge" aria-hidden="true">
          <VerifiedIcon size={36} />
        </span>
        <div>
          <h2 id="sub-current-title">Giftlink Weekly</h2>
          <p className="sub-current__status">
            <span className={ending ? 'badge sub-status sub-status--ending' : 'badge sub-status sub-status--active'}>
              {ending ? 'Canceled' : 'Active'}
            </span>
            <span className="muted small">
              {formatDollars(price)} a week · paid by {paidBy}
            </span>
          </p>
        </div>
      </div>

      {ending ? (
        <p className="sub-current__date">{endDate ? `Your benefits last until ${endDate}.` : 'Your benefits end soon.'}</p>
      ) : (
        <p className="sub-current__date">{endDate ? `Renews on ${endDate}.` : 'Renews every week until you cancel.'}</p>
      )}

      {error ? (
        <div className="alert" role="alert">
          {error}
        </div>
      ) : null}
      {cancel.isSuccess && ending ? (
        <p className="alert alert--info" role="status">
          Your subscription is canceled. It will not renew.
        </p>
      ) : null}

      {info.communityInviteUrl ? (
        <a className="btn btn--soft sub-current__community" href={info.communityInviteUrl} target="_blank" rel="noopener noreferrer">
          <ChatIcon size={18} />
          Join the private community
        </a>
      ) : null}

      <div className="sub-current__actions">
        {ending ? (
          <button
            type="button"
            className="btn btn--gradient"
            disabled={resuming}
            onClick={() => onResume({ kind: 'resume', paymentMethod: info.paymentMethod ?? 'card' })}
          >
            {resuming ? 'Resuming…' : 'Resume'}
          </button>
        ) : (
          <button type="button" className="btn btn--danger" disabled={cancel.isPending} onClick={() => setConfirming(true)}>
            Cancel subscription
          </button>
        )}
      </div>
      {ending ? <p className="muted small">Resuming keeps your current week: nothing is charged until {endDate ?? 'it ends'}.</p> : null}

      {confirming ? (
        <ConfirmPopup
          message={
            endDate
              ? `Cancel your subscription? You keep your benefits until ${endDate}, and you will not be charged again.`
              : 'Cancel your subscription? You will not be charged again.'
          }
          primaryLabel={cancel.isPending ? 'Canceling…' : 'Yes, cancel'}
          secondaryLabel="Keep subscription"
          busy={cancel.isPending}
          onSecondary={() => setConfirming(false)}
          onPrimary={() =>
            cancel.mutate(
              // A balance-paid subscription has no provider subscription to name.
              { stripeCustomerId, stripeSubscriptionId: info.id },
              {
                onSettled: () => setConfirming(false),
              },
            )
          }
        />
      ) : null}
    </section>
  );
}
