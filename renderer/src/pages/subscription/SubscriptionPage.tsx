import { useState } from 'react';
import { useAtomValue } from 'jotai';
import { Link, Navigate, useLocation, useParams } from 'react-router-dom';
import { SUBSCRIBE_LOGIN } from '../../../../api/contract/texts';
import { SUBSCRIPTION_PRICE_CENTS } from '../../../../api/contract/limits';
import { centsToDollars } from '../../../../api/contract/money';
import { useSubscriptionConfig, useSubscriptionInfo } from '../../api/subscriptions';
import { LockIcon } from '../../components/Icons';
import { RetryAlert } from '../../components/RetryAlert';
import { PageSpinner } from '../../components/Spinner';
import { usePageTitle } from '../../components/usePageTitle';
import { fromLocation } from '../../state/navigation';
import { sessionCheckedAtom, userAtom } from '../../state/session';
import { ManageCurrent } from './ManageCurrent';
import { PaymentStep } from './PaymentStep';
import { ProductCard, Stepper } from './ProductCard';
import { SuccessStep } from './SuccessStep';
import { subscriptionErrorText, useSubscribe } from './useSubscribe';
import './SubscriptionPage.css';

/**
 * /manage-subscription/{username} (PRODUCT.md §2, subscription page): only for the named user. Not
 * subscribed: step 1 the product, step 2 payment, step 3 success. Subscribed: status, date,
 * community, Cancel (or Resume once canceled).
 */
export function SubscriptionPage() {
  const { username = '' } = useParams();
  const me = useAtomValue(userAtom);
  const checked = useAtomValue(sessionCheckedAtom);
  const location = useLocation();
  usePageTitle('Manage Subscription');

  if (!checked) return <PageSpinner />;
  if (!me) {
    return (
      <div className="card empty-state sub-login">
        <div className="empty-state__icon">
          <LockIcon size={28} />
        </div>
        <h1>{SUBSCRIBE_LOGIN}</h1>
        <Link className="btn btn--primary" to="/login" state={fromLocation(location)}>
          Log in
        </Link>
      </div>
    );
  }
  if (me.username.toLowerCase() !== username.toLowerCase()) return <Navigate to="/" replace />;
  return <Subscription userId={me._id} balance={me.balance} stripeCustomerId={me.stripeCustomerId} />;
}

function Subscription({ userId, balance, stripeCustomerId }: { userId: string; balance: number; stripeCustomerId: string | null }) {
  const config = useSubscriptionConfig();
  const info = useSubscriptionInfo(userId);
  const subscribe = useSubscribe(userId);
  const [step, setStep] = useState<1 | 2>(1);
  const [now] = useState(() => new Date());
  // After a successful subscribe (not a resume) the page stays on step 3 until the user moves on.
  const celebrating = subscribe.isSuccess && subscribe.variables.kind !== 'resume';

  const failed = config.error ?? info.error;
  let body;
  if (celebrating) {
    body = (
      <>
        <Stepper step={3} />
        <SuccessStep
          info={info.data}
          onDone={() => {
            subscribe.reset();
            setStep(1);
          }}
        />
      </>
    );
  } else if (failed) {
    body = (
      <RetryAlert
        message={subscriptionErrorText(failed)}
        onRetry={() => {
          void config.refetch();
          void info.refetch();
        }}
        disabled={config.isFetching || info.isFetching}
      />
    );
  } else if (!config.data || !info.data) {
    body = <PageSpinner label="Loading your subscription" />;
  } else if (info.data.isSubscribed) {
    body = (
      <ManageCurrent
        userId={userId}
        stripeCustomerId={stripeCustomerId}
        info={info.data}
        price={config.data.price}
        resuming={subscribe.isPending}
        resumeError={subscribe.isError ? subscriptionErrorText(subscribe.error) : null}
        onResume={(input) => subscribe.mutate(input)}
      />
    );
  } else {
    const price = config.data.price || centsToDollars(SUBSCRIPTION_PRICE_CENTS);
    body = (
      <>
        {info.data.status === 'past_due' ? (
          <p className="alert" role="status">
            Your last weekly payment did not go through, so your benefits are paused. Subscribe again to turn them back on.
          </p>
        ) : null}
        <Stepper step={step} />
        {step === 1 ? (
          <ProductCard price={price} now={now} onContinue={() => setStep(2)} />
        ) : (
          <PaymentStep
            config={{ ...config.data, price }}
            balance={balance}
            busy={subscribe.isPending}
            error={subscribe.isError ? subscriptionErrorText(subscribe.error) : null}
            onBack={() => {
              subscribe.reset();
              setStep(1);
            }}
            onPay={(input) => subscribe.mutate(input)}
          />
        )}
      </>
    );
  }

  return (
    <div className="sub-page">
      <header className="page-header">
        <h1>Manage Subscription</h1>
        <p>A verified badge, your visitors and the community, for a small weekly price.</p>
      </header>
      {body}
    </div>
  );
}
