import { useEffect, useState, type FormEvent } from 'react';
import { useAtomValue, useSetAtom } from 'jotai';
import { Navigate, useLocation } from 'react-router-dom';
import * as authApi from '../../api/auth';
import { PASSWORD_MIN_LENGTH } from '../../../../api/contract/limits';
import { INCORRECT_LOGIN, LOGIN_TAGLINE, LOGIN_TITLE, SERVER_ERROR } from '../../../../api/contract/texts';
import { ApiError, NETWORK_ERROR_MESSAGE } from '../../api/client';
import { AuthCard } from '../../components/AuthCard';
import { AppLink } from '../../components/AppLinks';
import { usePageTitle } from '../../components/usePageTitle';
import { returnPath } from '../../state/navigation';
import { errorAtom, isLoadingAtom, loginFailureAtom, loginStartAtom, userAtom } from '../../state/session';
import { useCompleteLogin } from '../../state/useSession';
import { LoginFooter, LoginForm } from './LoginForm';
import '../password/PasswordReset.css';

/** PRODUCT.md §8: login errors. */
function loginErrorMessage(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 0) return NETWORK_ERROR_MESSAGE;
    if (err.status === 400) return INCORRECT_LOGIN;
    if (err.status >= 500) return SERVER_ERROR;
    return err.message;
  }
  return SERVER_ERROR;
}

export function LoginPage() {
  const location = useLocation();
  const user = useAtomValue(userAtom);
  const error = useAtomValue(errorAtom);
  const isLoading = useAtomValue(isLoadingAtom);
  const loginStart = useSetAtom(loginStartAtom);
  const loginFailure = useSetAtom(loginFailureAtom);
  const setError = useSetAtom(errorAtom);
  const completeLogin = useCompleteLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  usePageTitle('Log in');

  // A stale error from an earlier visit should not greet the user.
  useEffect(() => {
    setError(false);
  }, [setError]);

  if (user) return <Navigate to={returnPath(location.state)} replace />;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    setSubmitting(true);
    loginStart();
    try {
      const response = await authApi.login({ email: email.trim(), password });
      await completeLogin(response);
    } catch (err) {
      loginFailure(loginErrorMessage(err));
    } finally {
      setSubmitting(false);
    }
  }

  const busy = submitting && isLoading;

  return (
    <AuthCard title={LOGIN_TITLE} tagline={LOGIN_TAGLINE} footer={<LoginFooter Link={AppLink} />}>
      <LoginForm
        Link={AppLink}
        passwordMinLength={PASSWORD_MIN_LENGTH}
        busy={busy}
        error={error}
        email={email}
        password={password}
        onEmail={setEmail}
        onPassword={setPassword}
        onSubmit={onSubmit}
      />
    </AuthCard>
  );
}
