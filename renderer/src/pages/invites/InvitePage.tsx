import { useEffect } from 'react';
import { useAtomValue } from 'jotai';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { INVITE_CHECK_FAILED, INVITE_INVALID, INVITE_MEMBER, INVITE_MISSING } from '../../../../api/contract/texts';
import { useInviteCheck } from '../../api/invites';
import { AuthCard } from '../../components/AuthCard';
import { PageSpinner } from '../../components/Spinner';
import { usePageTitle } from '../../components/usePageTitle';
import { userAtom } from '../../state/session';

type InviteState = { kind: 'checking' } | { kind: 'valid' } | { kind: 'message'; text: string; redirectMs: number };

export const INVITE_TEXTS = {
  member: INVITE_MEMBER,
  invalid: INVITE_INVALID,
  failed: INVITE_CHECK_FAILED,
  missing: INVITE_MISSING,
} as const;

/** /invite/{code} and /invites/accept/{code}: the landing page of an invite link. */
export function InvitePage() {
  const { inviteId } = useParams();
  const user = useAtomValue(userAtom);
  const navigate = useNavigate();
  const loggedIn = user !== null;
  usePageTitle('Invite');

  // The server is asked only about a code a visitor brings.
  const check = useInviteCheck(inviteId ?? '', Boolean(inviteId) && !loggedIn);

  let state: InviteState;
  if (!inviteId) state = { kind: 'message', text: INVITE_TEXTS.missing, redirectMs: 2000 };
  else if (loggedIn) state = { kind: 'message', text: INVITE_TEXTS.member, redirectMs: 3000 };
  else if (check.isError) state = { kind: 'message', text: INVITE_TEXTS.failed, redirectMs: 3000 };
  else if (check.isSuccess) state = check.data ? { kind: 'valid' } : { kind: 'message', text: INVITE_TEXTS.invalid, redirectMs: 3000 };
  else state = { kind: 'checking' };

  const redirectMs = state.kind === 'message' ? state.redirectMs : null;
  useEffect(() => {
    if (redirectMs === null) return;
    const timer = window.setTimeout(() => navigate('/', { replace: true }), redirectMs);
    return () => window.clearTimeout(timer);
  }, [redirectMs, navigate]);

  if (state.kind === 'checking') return <PageSpinner label="Checking your invite" />;

  if (state.kind === 'valid' && inviteId) {
    return (
      <AuthCard
        title="Accept Invite"
        tagline="Someone invited you to Giftlink, where people who love you can send you gifts."
        footer={
          <p>
            Already have an account? <Link to="/login">Log in</Link>
          </p>
        }
      >
        <Link className="btn btn--gradient btn--block" to={`/register/${encodeURIComponent(inviteId)}`}>
          Create Account
        </Link>
      </AuthCard>
    );
  }

  const text = state.kind === 'message' ? state.text : INVITE_TEXTS.missing;
  return (
    <AuthCard title="Giftlink invite">
      <div className="stack invite-message">
        <p role="status" className="invite-message__text">
          {text}
        </p>
        <p className="muted small">Taking you to the home page…</p>
      </div>
    </AuthCard>
  );
}
