import { useState, type FormEvent } from 'react';
import { useAtomValue } from 'jotai';
import { Link, Navigate, matchPath, useLocation, useParams, useSearchParams } from 'react-router-dom';
import * as authApi from '../../api/auth';
import { useJoinAvailability } from '../../api/invites';
import { EMAIL_MAX_LENGTH, EMAIL_MIN_LENGTH, USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH } from '../../../../api/contract/limits';
import { JOIN_UNAVAILABLE, REGISTER_FAILED } from '../../../../api/contract/texts';
import { DATE_OF_BIRTH_INVALID, DATE_OF_BIRTH_LABEL } from '../../../../api/contract/account-texts';
import { LEGAL_PATHS } from '../../../../api/contract/legal-paths';
import { ApiError } from '../../api/client';
import { AuthCard } from '../../components/AuthCard';
import { NewPasswordFields, useNewPassword } from '../../components/NewPasswordFields';
import { Spinner } from '../../components/Spinner';
import { usePageTitle } from '../../components/usePageTitle';
import { returnPath } from '../../state/navigation';
import { userAtom } from '../../state/session';
import { useCompleteLogin } from '../../state/useSession';

function registerErrorMessage(err: unknown): string {
  if (err instanceof ApiError && err.status === 400 && err.message) return err.message;
  return REGISTER_FAILED;
}

/** The refusals about the date of birth, shown under its field rather than above the form. */
function dateOfBirthError(err: unknown): string | null {
  if (!(err instanceof ApiError)) return null;
  return err.code === 'under_age' || err.message === DATE_OF_BIRTH_INVALID ? err.message : null;
}

export function RegisterPage() {
  const { inviteId } = useParams();
  const location = useLocation();
  // From a link or wishlist page ('Join Giftlink', or its Register button): the page itself
  // invites, when its owner lets visitors join. An invite link wins.
  const [searchParams] = useSearchParams();
  const askedVia = searchParams.get('via')?.trim() ?? '';
  const from = returnPath(location.state);
  const cameFrom = (matchPath('/link/:username', from) ?? matchPath('/wishlist/:username', from))?.params.username ?? '';
  const via = inviteId ? '' : askedVia || cameFrom;
  const join = useJoinAvailability(via);
  const joining = via !== '' && join.data?.available === true;
  // Said only when the visitor followed a join link; from a Register button the code field just shows.
  const joinRefused = !inviteId && askedVia !== '' && (join.isError || join.data?.available === false);
  const user = useAtomValue(userAtom);
  const completeLogin = useCompleteLogin();
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [dateOfBirth, setDateOfBirth] = useState('');
  const [dateOfBirthRefusal, setDateOfBirthRefusal] = useState<string | null>(null);
  // The date picker offers no day after today (the server's clock, in UTC, has the last word).
  const [today] = useState(() => new Date().toISOString().slice(0, 10));
  const pw = useNewPassword();
  const [typedInviteCode, setInviteCode] = useState('');
  // From an invite link the code comes from the path; otherwise the visitor types it.
  const inviteCode = inviteId ?? typedInviteCode;
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  usePageTitle('Register');

  // Back to where the visitor came from (a link page's Register button), else home.
  if (user) return <Navigate to={returnPath(location.state)} replace />;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    if (!pw.confirmed()) return;
    setSubmitting(true);
    setError(null);
    setDateOfBirthRefusal(null);
    try {
      const response = await authApi.register({
        username: username.trim(),
        email: email.trim(),
        password: pw.password,
        dateOfBirth,
        ...(joining ? { via } : { inviteCode: inviteCode.trim() }),
      });
      await completeLogin(response);
    } catch (err) {
      const refusal = dateOfBirthError(err);
      if (refusal) setDateOfBirthRefusal(refusal);
      else setError(registerErrorMessage(err));
      setSubmitting(false);
      // The link may just have reached its limit for the day: ask again (the invite field comes back).
      if (joining) void join.refetch();
    }
  }

  const fromInviteLink = Boolean(inviteId);
  const tagline = joining
    ? `Invited by ${join.data?.displayName ?? via}`
    : fromInviteLink
      ? "You've been invited to Giftlink."
      : 'Registration needs an invite from someone on Giftlink.';

  return (
    <AuthCard
      title="Create your account"
      tagline={tagline}
      footer={
        <>
          <p>
            Already have an account?{' '}
            <Link to="/login" state={location.state}>
              Log in
            </Link>
          </p>
          <p className="muted small">
            By registering you accept the <Link to={LEGAL_PATHS.terms}>Terms</Link> and have read how we handle your data in{' '}
            <Link to={LEGAL_PATHS.privacy}>Privacy</Link>.
          </p>
        </>
      }
    >
      <form className="form" onSubmit={onSubmit} aria-busy={submitting}>
        {error ? (
          <div className="alert" role="alert">
            {error}
          </div>
        ) : null}
        {joinRefused && !error ? (
          <div className="alert alert--info" role="status">
            {JOIN_UNAVAILABLE}
          </div>
        ) : null}
        <div className="field">
          <label htmlFor="register-username">Username</label>
          <input
            id="register-username"
            className="input"
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            minLength={USERNAME_MIN_LENGTH}
            maxLength={USERNAME_MAX_LENGTH}
            value={username}
            onChange={(event) => setUsername(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="register-email">Email</label>
          <input
            id="register-email"
            className="input"
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            required
            minLength={EMAIL_MIN_LENGTH}
            maxLength={EMAIL_MAX_LENGTH}
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="register-dob">{DATE_OF_BIRTH_LABEL}</label>
          <input
            id="register-dob"
            className="input"
            type="date"
            name="dateOfBirth"
            autoComplete="bday"
            required
            min="1900-01-01"
            max={today}
            aria-invalid={dateOfBirthRefusal ? true : undefined}
            aria-describedby={dateOfBirthRefusal ? 'register-dob-error' : undefined}
            value={dateOfBirth}
            onChange={(event) => {
              setDateOfBirth(event.target.value);
              setDateOfBirthRefusal(null);
            }}
          />
          {dateOfBirthRefusal ? (
            <p id="register-dob-error" className="field-error" role="alert">
              {dateOfBirthRefusal}
            </p>
          ) : null}
        </div>
        <NewPasswordFields state={pw} idPrefix="register" passwordLabel="Password" confirmLabel="Confirm password" />
        {joining || (via !== '' && join.isPending) ? null : (
          <div className="field">
            <label htmlFor="register-invite">Invite code</label>
            <input
              id="register-invite"
              className="input"
              name="inviteCode"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              required
              readOnly={fromInviteLink}
              aria-describedby={fromInviteLink ? 'register-invite-hint' : undefined}
              value={inviteCode}
              onChange={(event) => setInviteCode(event.target.value)}
            />
            {fromInviteLink ? (
              <span id="register-invite-hint" className="field-hint">
                From your invite link.
              </span>
            ) : null}
          </div>
        )}
        <button type="submit" className="btn btn--primary btn--block" disabled={submitting || (via !== '' && join.isPending)}>
          {submitting ? <Spinner size={18} light label="Creating your account" /> : null}
          Create Account
        </button>
      </form>
    </AuthCard>
  );
}
