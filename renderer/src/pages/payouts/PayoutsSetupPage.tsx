import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useAtomValue } from 'jotai';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import {
  INVALID_BANK_ACCOUNT,
  PAYOUTS_CHECKING,
  PAYOUTS_CONTINUE,
  PAYOUTS_LOAD_FAILED,
  PAYOUTS_START_FAILED,
  PAYOUTS_TITLE,
  SANDBOX_BANK_CHANGE_TITLE,
  SANDBOX_BANK_NOTE,
  SANDBOX_BANK_TITLE,
  SERVER_ERROR,
} from '../../../../api/contract/texts';
import { errorMessage } from '../../api/client';
import { useCompleteSandboxBank, usePayouts } from '../../api/payouts';
import { PayoutsStatus } from '../../components/PayoutsStatus';
import { RetryAlert } from '../../components/RetryAlert';
import { Spinner } from '../../components/Spinner';
import { usePageTitle } from '../../components/usePageTitle';
import { userAtom } from '../../state/session';
import { useGoToOnboarding } from '../settings/PayoutsSection';
import './PayoutsSetupPage.css';

const settingsPath = (username: string | undefined) => (username ? `/profile/${username}/settings#payouts` : '/');

/** The sandbox's onboarding, and its change of bank (`?change=bank`): Stripe's test bank numbers, posted to the sandbox, then back to Settings. */
function SandboxBankForm({ back }: { back: string }) {
  const complete = useCompleteSandboxBank();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const changing = search.get('change') === 'bank';
  const [routingNumber, setRouting] = useState('110000000');
  const [accountNumber, setAccount] = useState('');
  const [invalid, setInvalid] = useState(false);
  const routingId = useId();
  const accountId = useId();
  const noteId = useId();
  const accountRef = useRef<HTMLInputElement>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const ok = /^\d{9}$/.test(routingNumber.trim()) && /^\d{4,17}$/.test(accountNumber.trim());
    setInvalid(!ok);
    if (!ok) {
      accountRef.current?.focus();
      return;
    }
    complete.mutate({ routingNumber: routingNumber.trim(), accountNumber: accountNumber.trim() }, { onSuccess: () => navigate(back) });
  }

  const error = invalid ? INVALID_BANK_ACCOUNT : complete.error ? errorMessage(complete.error, SERVER_ERROR) : null;
  return (
    <form className="card payouts-setup__form" onSubmit={onSubmit} noValidate aria-busy={complete.isPending}>
      <h2>{changing ? SANDBOX_BANK_CHANGE_TITLE : SANDBOX_BANK_TITLE}</h2>
      <p id={noteId} className="payouts-setup__note" role="note">
        {SANDBOX_BANK_NOTE}
      </p>
      <div className="field">
        <label htmlFor={routingId}>Routing number</label>
        <input
          id={routingId}
          className="input"
          inputMode="numeric"
          autoComplete="off"
          value={routingNumber}
          aria-invalid={invalid}
          aria-describedby={noteId}
          onChange={(e) => {
            setRouting(e.target.value);
            setInvalid(false);
            complete.reset();
          }}
        />
      </div>
      <div className="field">
        <label htmlFor={accountId}>Account number</label>
        <input
          ref={accountRef}
          id={accountId}
          className="input"
          inputMode="numeric"
          autoComplete="off"
          value={accountNumber}
          aria-invalid={invalid}
          aria-describedby={noteId}
          onChange={(e) => {
            setAccount(e.target.value);
            setInvalid(false);
            complete.reset();
          }}
          autoFocus
        />
      </div>
      {error ? (
        <div className="alert" role="alert">
          {error}
        </div>
      ) : null}
      <div className="payouts-setup__buttons">
        <button type="submit" className="btn btn--primary" disabled={complete.isPending}>
          {complete.isPending ? <Spinner size={18} light label="Saving" /> : null}
          Save bank account
        </button>
        <Link to={back} className="btn btn--ghost">
          Cancel
        </Link>
      </div>
    </form>
  );
}

/** Back from Stripe's onboarding: ask Stripe again and show where payouts stand. */
function ReturnView({ back }: { back: string }) {
  const payouts = usePayouts(true);
  const onboarding = useGoToOnboarding();
  if (payouts.isPending) return <Spinner label={PAYOUTS_CHECKING} />;
  if (payouts.isError) return <RetryAlert message={PAYOUTS_LOAD_FAILED} onRetry={() => void payouts.refetch()} />;
  return (
    <div className="card payouts-setup__form">
      <PayoutsStatus payouts={payouts.data} />
      <div className="payouts-setup__buttons">
        {payouts.data.status === 'ready' ? null : (
          <button type="button" className="btn btn--primary" disabled={onboarding.pending} onClick={onboarding.go}>
            {PAYOUTS_CONTINUE}
          </button>
        )}
        <Link to={back} className="btn">
          Back to Settings
        </Link>
      </div>
    </div>
  );
}

/** Stripe's link expired or was used: make a new one and go straight back to it. */
function RefreshView({ back }: { back: string }) {
  const onboarding = useGoToOnboarding();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    onboarding.go();
  }, [onboarding]);
  if (onboarding.error)
    return (
      <div className="card payouts-setup__form">
        <p className="field-error" role="alert">
          {errorMessage(onboarding.error, PAYOUTS_START_FAILED)}
        </p>
        <Link to={back} className="btn">
          Back to Settings
        </Link>
      </div>
    );
  return <Spinner label="Opening payouts setup" />;
}

/** /settings/payouts/sandbox, /return and /refresh: the pages the payouts onboarding goes through. */
export function PayoutsSetupPage() {
  usePageTitle(PAYOUTS_TITLE);
  const { step } = useParams();
  const user = useAtomValue(userAtom);
  const back = settingsPath(user?.username);
  return (
    <div className="payouts-setup">
      <header className="page-header">
        <h1>{PAYOUTS_TITLE}</h1>
      </header>
      {step === 'sandbox' ? <SandboxBankForm back={back} /> : step === 'refresh' ? <RefreshView back={back} /> : <ReturnView back={back} />}
    </div>
  );
}
