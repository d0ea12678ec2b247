import type { UseMutationResult } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import {
  PAYOUTS_CHANGE_BANK,
  PAYOUTS_CONTINUE,
  PAYOUTS_DASHBOARD_FAILED,
  PAYOUTS_INTRO,
  PAYOUTS_LOAD_FAILED,
  PAYOUTS_SET_UP,
  PAYOUTS_START_FAILED,
  PAYOUTS_TITLE,
  PAYOUTS_UPDATE,
  payoutRefused,
} from '../../../../api/contract/texts';
import { errorMessage } from '../../api/client';
import { platform } from '../../platform';
import { useOpenDashboard, usePayouts, useStartOnboarding } from '../../api/payouts';
import { PayoutsStatus } from '../../components/PayoutsStatus';
import { Spinner } from '../../components/Spinner';
import { formatDollars } from '../../format';
import './PayoutsSection.css';

/** Sends the browser where the mutation's answer says: a page of ours in the app, Stripe's pages outside it. */
function useGoTo(mutation: UseMutationResult<{ url: string }, Error, void>) {
  const navigate = useNavigate();
  const go = () =>
    mutation.mutate(undefined, {
      // Stripe's pages open outside the app (a new tab, or the desktop's browser); onboarding returns to our return page.
      onSuccess: ({ url }) => (url.startsWith('/') ? navigate(url) : void platform.openUrl(url)),
    });
  return { go, pending: mutation.isPending, error: mutation.error };
}

/** The onboarding: Stripe's hosted pages, or the sandbox's page of ours. */
export const useGoToOnboarding = () => useGoTo(useStartOnboarding());

/** Where the bank account is changed: Stripe's Express Dashboard, or the sandbox's bank form. */
const useGoToDashboard = () => useGoTo(useOpenDashboard());

/**
 * Settings → Payouts: where withdrawals go. 'Set up payouts' creates the user's connected account
 * and sends them to the onboarding; the status shows what Stripe still asks for; once set up, 'Change
 * bank account' leads to where the bank is changed, and a payout the bank refused is said plainly.
 */
export function PayoutsSection() {
  const payouts = usePayouts();
  const onboarding = useGoToOnboarding();
  const dashboard = useGoToDashboard();
  const status = payouts.data?.status;
  const failed = payouts.data?.payoutFailed;
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
          {failed ? (
            <p className="alert payouts-section__failed" role="alert">
              {payoutRefused(formatDollars(failed.amount), failed.reason)}
            </p>
          ) : null}
          <div className="payouts-section__actions">
            {/* Once ready, nothing is left to onboard: the bank is changed where the provider keeps it. */}
            {status === 'ready' ? null : (
              <button type="button" className="btn btn--primary" disabled={onboarding.pending} onClick={onboarding.go}>
                {onboarding.pending ? <Spinner size={18} light label="Opening payouts setup" /> : null}
                {label}
              </button>
            )}
            {status === 'ready' || failed ? (
              <button type="button" className={failed ? 'btn btn--primary' : 'btn'} disabled={dashboard.pending} onClick={dashboard.go}>
                {dashboard.pending ? <Spinner size={18} light={Boolean(failed)} label="Opening your bank account settings" /> : null}
                {PAYOUTS_CHANGE_BANK}
              </button>
            ) : null}
          </div>
        </>
      )}
      {onboarding.error ? (
        <p className="field-error" role="alert">
          {errorMessage(onboarding.error, PAYOUTS_START_FAILED)}
        </p>
      ) : null}
      {dashboard.error ? (
        <p className="field-error" role="alert">
          {errorMessage(dashboard.error, PAYOUTS_DASHBOARD_FAILED)}
        </p>
      ) : null}
    </section>
  );
}
