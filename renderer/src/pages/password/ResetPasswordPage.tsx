import { type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useResetPassword } from '../../api/auth';
import { AuthCard } from '../../components/AuthCard';
import { NewPasswordFields, useNewPassword } from '../../components/NewPasswordFields';
import { Spinner } from '../../components/Spinner';
import { usePageTitle } from '../../components/usePageTitle';
import { resetErrorMessage } from './ForgotPasswordPage';

/** /reset-password/:token, the emailed link: a new password (the register rules), then log in with it. */
export function ResetPasswordPage() {
  const { token = '' } = useParams();
  const pw = useNewPassword();
  const reset = useResetPassword();
  usePageTitle('Reset password');

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (reset.isPending) return;
    if (!pw.confirmed()) return;
    reset.mutate({ token, password: pw.password });
  }

  if (reset.isSuccess) {
    return (
      <AuthCard title="Password changed" tagline={reset.data.message}>
        <Link to="/login" className="btn btn--primary btn--block">
          Log in
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Set a new password"
      tagline="Choose a new password for your Giftlink account."
      footer={
        <p>
          Link not working? <Link to="/forgot-password">Ask for a new one</Link>
        </p>
      }
    >
      <form className="form" onSubmit={onSubmit} aria-busy={reset.isPending}>
        {reset.isError ? (
          <div className="alert" role="alert">
            {resetErrorMessage(reset.error)}
          </div>
        ) : null}
        <NewPasswordFields state={pw} idPrefix="reset" passwordLabel="New password" confirmLabel="Confirm new password" hint />
        <button type="submit" className="btn btn--primary btn--block" disabled={reset.isPending}>
          {reset.isPending ? <Spinner size={18} light label="Saving" /> : null}
          Set new password
        </button>
      </form>
    </AuthCard>
  );
}
