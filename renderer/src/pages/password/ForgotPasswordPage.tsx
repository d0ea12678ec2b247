import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useForgotPassword } from '../../api/auth';
import { ApiError, NETWORK_ERROR_MESSAGE } from '../../api/client';
import { SERVER_ERROR } from '../../../../api/contract/texts';
import { AuthCard } from '../../components/AuthCard';
import { Spinner } from '../../components/Spinner';
import { usePageTitle } from '../../components/usePageTitle';

/** What a refused request says: the server's own text for a 4xx (a bad address, too many tries). */
export function resetErrorMessage(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 0) return NETWORK_ERROR_MESSAGE;
    if (err.status < 500 && err.message) return err.message;
  }
  return SERVER_ERROR;
}

/** /forgot-password: an email address in, a reset link out (if an account uses it). */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const forgot = useForgotPassword();
  usePageTitle('Forgot password');

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (forgot.isPending) return;
    forgot.mutate({ email: email.trim() });
  }

  const footer = (
    <p>
      Remembered it? <Link to="/login">Log in</Link>
    </p>
  );

  if (forgot.isSuccess) {
    return (
      <AuthCard title="Check your email" tagline={forgot.data.message} footer={footer}>
        <div className="form">
          <p className="field-hint">The link works once, for 30 minutes. Nothing arrived? Look in your spam folder, or ask again.</p>
          <button type="button" className="btn btn--soft btn--block" onClick={() => forgot.reset()}>
            Send another link
          </button>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Forgot your password?"
      tagline="Enter your account's email and we'll send you a link to set a new one."
      footer={footer}
    >
      <form className="form" onSubmit={onSubmit} aria-busy={forgot.isPending}>
        {forgot.isError ? (
          <div className="alert" role="alert">
            {resetErrorMessage(forgot.error)}
          </div>
        ) : null}
        <div className="field">
          <label htmlFor="forgot-email">Email</label>
          <input
            id="forgot-email"
            className="input"
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        <button type="submit" className="btn btn--primary btn--block" disabled={forgot.isPending}>
          {forgot.isPending ? <Spinner size={18} light label="Sending" /> : null}
          Send reset link
        </button>
      </form>
    </AuthCard>
  );
}
