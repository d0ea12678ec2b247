import { useEffect, useState } from 'react';
import { useAtomValue } from 'jotai';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { isAbortError } from '../api/client';
import { checkInvite } from '../api/invites';
import { AuthCard } from '../components/AuthCard';
import { PageSpinner } from '../components/Spinner';
import { usePageTitle } from '../components/usePageTitle';
import { userAtom } from '../state/session';

type InviteState =
  | { kind: 'checking' }
  | { kind: 'valid' }
  | { kind: 'message'; text: string; redirectMs: number };

export const INVITE_TEXTS = {
  member: "You already have an account. Send this invite to someone who doesn't",
  invalid: 'Invalid or expired invite link.',
  failed: 'An error occurred while validating the invite link.',
  missing: 'No invite provided.',
} as const;

/** /invite/{code} and /invites/accept/{code}: the landing page of an invite link. */
export function InvitePage() {
  const { inviteId } = useParams();
  const user = useAtomValue(userAtom);
  const navigate = useNavigate();
  const loggedIn = user !== null;
  usePageTitle('Invite');

  // The server's answer, remembered with the code it is for.
  const [check, setCheck] = useState<{ code: string; state: InviteState } | null>(null);

  let state: InviteState;
  if (!inviteId) state = { kind: 'message', text: INVITE_TEXTS.missing, redirectMs: 2000 };
  else if (loggedIn) state = { kind: 'message', text: INVITE_TEXTS.member, redirectMs: 3000 };
  else if (check && check.code === inviteId) state = check.state;
  else state = { kind: 'checking' };

  const needsCheck = Boolean(inviteId) && !loggedIn;
  useEffect(() => {
    if (!needsCheck || !inviteId) return;
    const controller = new AbortController();
    const settle = (next: InviteState) => setCheck({ code: inviteId, state: next });
    checkInvite(inviteId, controller.signal).then(
      (invites) => {
        const usable = Array.isArray(invites) && invites.some((invite) => invite.status !== 'used');
        settle(usable ? { kind: 'valid' } : { kind: 'message', text: INVITE_TEXTS.invalid, redirectMs: 3000 });
      },
      (err: unknown) => {
        if (isAbortError(err) || controller.signal.aborted) return;
        settle({ kind: 'message', text: INVITE_TEXTS.failed, redirectMs: 3000 });
      },
    );
    return () => controller.abort();
  }, [inviteId, needsCheck]);

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
