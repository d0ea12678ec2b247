import { useNavigate } from 'react-router-dom';
import {
  PAYOUTS_CONTINUE,
  PAYOUTS_INTRO,
  PAYOUTS_LOAD_FAILED,
  PAYOUTS_SET_UP,
  PAYOUTS_START_FAILED,
  PAYOUTS_TITLE,
  PAYOUTS_UPDATE,
} from '../../../../api/contract/texts';
import { errorMessage } from '../../api/client';
import { platform } from '../../platform';
import { usePayouts, useStartOnboarding } from '../../api/payouts';
import { PayoutsStatus } from '../../components/PayoutsStatus';
import { Spinner } from '../../components/Spinner';
import './PayoutsSection.css';

/** Sends the browser to the onboarding: Stripe's hosted pages, or the sandbox's page of ours. */
export function useGoToOnboarding() {
  const start = useStartOnboarding();
  const navigate = useNavigate();
  const go = () =>
    start.mutate(undefined, {
      // Stripe's pages open outside the app (a new tab, or the desktop's browser) and return to our return page.
      onSuccess: ({ url }) => (url.startsWith('/') ? navigate(url) : void platform.openUrl(url)),
    });
  return { go, pending: start.isPending, error: start.error };
}

/**
 * Settings → Payouts: where withdrawals go. 'Set up payouts' creates the user's connected account
 * and sends them to the onboarding; the status shows what Stripe still asks for.
 */
export function PayoutsSection() {
  const payouts = usePayouts();
  const onboarding = useGoToOnboarding();
  const status = payouts.data?.status;
  const label =
    status === 'details_needed' ? PAYOUTS_CONTINUE : status === 'restricted' || status === 'ready' ? PAYOUTS_UPDATE : PAYOUTS_SET_UP;

  return (
    <section className="card payouts-section" aria-labelledby="settings-payouts" aria-busy={payouts.isPending}>
      <h2 id="settings-payouts" className="settings__section-title payouts-section__title">
        {PAYOUTS_TITLE}
      </h2>
      <p className="field-hint">{PAYOUTS_INTRO}</p>
      {payouts.isPending ? (
        <Spinner label="Loading payouts" />
      ) : payouts.isError ? (
        <div className="payouts-section__error">
          <p className="field-error" role="alert">
            {PAYOUTS_LOAD_FAILED}
          </p>
          <button type="button" className="btn btn--sm" onClick={() => void payouts.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <>
          <PayoutsStatus payouts={payouts.data} />
          {/* Once ready, the bank is changed in Stripe's own dashboard: nothing left to onboard. */}
          {status === 'ready' ? null : (
            <div className="payouts-section__actions">
              <button type="button" className="btn btn--primary" disabled={onboarding.pending} onClick={onboarding.go}>
                {onboarding.pending ? <Spinner size={18} light label="Opening payouts setup" /> : null}
                {label}
              </button>
            </div>
          )}
        </>
      )}
      {onboarding.error ? (
        <p className="field-error" role="alert">
          {errorMessage(onboarding.error, PAYOUTS_START_FAILED)}
        </p>
      ) : null}
    </section>
  );
}
