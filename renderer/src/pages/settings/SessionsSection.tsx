import { useState } from 'react';
import { SERVER_ERROR, SESSIONS_LOAD_FAILED } from '../../../../api/contract/texts';
import type { SessionView } from '../../../../api/contract/sessions';
import { errorMessage } from '../../api/client';
import { useSessionsQuery, useSignOutOtherSessions, useSignOutSession } from '../../api/sessions';
import { Spinner } from '../../components/Spinner';
import { formatDate, formatRelativeTime } from '../../format';
import './SessionsSection.css';

/**
 * Settings → Signed-in devices: every live session of the user, the current one marked
 * 'This device'. Another one can be signed out (its sockets close on every server), or all of them
 * at once; the current one is signed out with Logout below.
 */
export function SessionsSection() {
  const sessions = useSessionsQuery();
  const signOutOne = useSignOutSession();
  const signOutOthers = useSignOutOtherSessions();
  const [ending, setEnding] = useState<string | null>(null);
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;
  const failed = signOutOne.error ?? signOutOthers.error;
  const busy = signOutOne.isPending || signOutOthers.isPending;

  return (
    <section className="card sessions" aria-labelledby="settings-sessions">
      <h2 id="settings-sessions" className="settings__section-title sessions__title">
        Signed-in devices
      </h2>
      {sessions.isPending ? (
        <Spinner label="Loading your devices" />
      ) : sessions.isError ? (
        <p className="field-error" role="alert">
          {SESSIONS_LOAD_FAILED}
        </p>
      ) : (
        <ul className="sessions__list">
          {sessions.data.map((session) => (
            <SessionRow
              key={session.id}
              session={session}
              ending={ending === session.id && signOutOne.isPending}
              disabled={busy}
              onSignOut={() => {
                setEnding(session.id);
                signOutOne.mutate(session.id, { onSettled: () => setEnding(null) });
              }}
            />
          ))}
        </ul>
      )}
      {failed ? (
        <p className="field-error" role="alert">
          {errorMessage(failed, SERVER_ERROR)}
        </p>
      ) : null}
      {others > 0 ? (
        <button type="button" className="btn btn--danger btn--block sessions__all" disabled={busy} onClick={() => signOutOthers.mutate()}>
          {signOutOthers.isPending ? <Spinner size={18} label="Signing out" /> : null}
          Sign out all other sessions
        </button>
      ) : sessions.isSuccess ? (
        <p className="field-hint">This is the only device signed in to your account.</p>
      ) : null}
    </section>
  );
}

interface SessionRowProps {
  session: SessionView;
  ending: boolean;
  disabled: boolean;
  onSignOut: () => void;
}

function SessionRow({ session, ending, disabled, onSignOut }: SessionRowProps) {
  const signedIn = formatDate(session.createdAt);
  return (
    <li className="sessions__item">
      <div className="sessions__info">
        <span className="sessions__device">
          {session.device}
          {session.current ? <span className="badge sessions__current">This device</span> : null}
        </span>
        <span className="sessions__meta">
          <span>{session.current ? 'Active now' : `Last active ${formatRelativeTime(session.lastSeenAt)}`} · </span>
          <span>Signed in {signedIn}</span>
        </span>
      </div>
      {session.current ? null : (
        <button
          type="button"
          className="btn btn--sm btn--soft sessions__sign-out"
          disabled={disabled}
          aria-label={`Sign out ${session.device}, signed in ${signedIn}`}
          onClick={onSignOut}
        >
          {ending ? <Spinner size={16} label="Signing out" /> : null}
          Sign out
        </button>
      )}
    </li>
  );
}
