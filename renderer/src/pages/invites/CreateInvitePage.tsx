import { useEffect, useRef, useState } from 'react';
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { INVITE_COPY_FAILED, INVITE_FETCH_FAILED } from '../../../../api/contract/texts';
import { useInviteSummary, useInvitesQuery } from '../../api/invites';
import type { Invite } from '../../api/types';
import { CheckIcon, ClockIcon, CopyIcon, TicketIcon } from '../../components/Icons';
import { MessagePopup } from '../../components/MessagePopup';
import { PageSpinner } from '../../components/Spinner';
import { usePageTitle } from '../../components/usePageTitle';
import { userAtom } from '../../state/session';
import './CreateInvitePage.css';

const COPIED_MS = 3000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** 'Monday, November 30 (in 7 days)': when the next refilled invite arrives. */
function formatNextInvite(iso: string, now = Date.now()): string {
  const at = new Date(iso);
  const days = Math.max(0, Math.ceil((at.getTime() - now) / DAY_MS));
  const date = at.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric' });
  const when = days <= 1 ? (at.getTime() - now < DAY_MS / 2 ? 'within a day' : 'tomorrow') : `in ${days} days`;
  return `${date} (${when})`;
}

type InvitesState = { kind: 'loading' } | { kind: 'ready'; invites: Invite[] } | { kind: 'error' };

export function CreateInvitePage() {
  const user = useAtomValue(userAtom);
  const query = useInvitesQuery(user?._id ?? '');
  // Asked after the list, which brings back any invites due first.
  const summary = useInviteSummary(user?._id ?? '', query.isSuccess).data;
  const state: InvitesState = query.isSuccess
    ? { kind: 'ready', invites: query.data }
    : query.isError
      ? { kind: 'error' }
      : { kind: 'loading' };
  const [copiedId, setCopiedId] = useState<string | null>(null);
  const [popup, setPopup] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);
  usePageTitle('Invites');

  useEffect(() => () => window.clearTimeout(timer.current), []);

  async function copy(invite: Invite) {
    try {
      if (!navigator.clipboard) throw new Error('Clipboard unavailable');
      await navigator.clipboard.writeText(invite.url);
      setCopiedId(invite._id);
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => setCopiedId(null), COPIED_MS);
    } catch {
      setPopup(INVITE_COPY_FAILED);
    }
  }

  const available = state.kind === 'ready' ? state.invites.filter((i) => i.status === 'available').length : 0;
  const nextInvite =
    state.kind === 'ready' && summary?.nextInviteAt ? (
      <p className={available === 0 ? 'invites__next is-empty' : 'invites__next'} role="status">
        <ClockIcon size={18} />
        <span>
          {available === 0 ? 'All your invites are used. Your next invite arrives ' : 'Another invite arrives '}
          <strong>{formatNextInvite(summary.nextInviteAt)}</strong>. You get one back every {summary.refillDays}{' '}
          {summary.refillDays === 1 ? 'day' : 'days'}, up to {summary.max} unused.
        </span>
      </p>
    ) : null;

  return (
    <div className="invites">
      <header className="page-header">
        <h1>Invites</h1>
        <p>
          Giftlink is invite-only. Send an invite link to a friend; each invite creates one account. Friends who open your shared link or
          wishlist can join from it without using one.
        </p>
      </header>

      {state.kind === 'loading' ? <PageSpinner label="Loading invites" /> : null}

      {state.kind === 'error' ? (
        <div className="alert" role="alert">
          {INVITE_FETCH_FAILED}
        </div>
      ) : null}

      {state.kind === 'ready' && state.invites.length === 0 ? (
        <div className="card empty-state">
          <div className="empty-state__icon">
            <TicketIcon size={28} />
          </div>
          <h2>No invites yet</h2>
          <p className="muted">When invites are added to your account they will show up here.</p>
          {nextInvite}
        </div>
      ) : null}

      {state.kind === 'ready' && state.invites.length > 0 ? (
        <>
          <p className="invites__summary">{available === 1 ? '1 invite available' : `${available} invites available`}</p>
          {nextInvite}
          <ul className="invites__list">
            {state.invites.map((invite, index) => {
              const isAvailable = invite.status === 'available';
              const copied = copiedId === invite._id;
              return (
                <li key={invite._id} className={isAvailable ? 'invite card' : 'invite card is-used'}>
                  <div className="invite__icon">
                    <TicketIcon size={22} />
                  </div>
                  <div className="invite__body">
                    <span className="invite__code">Invite {index + 1}</span>
                    {isAvailable ? (
                      <span className="invite__url">{invite.url}</span>
                    ) : invite.usedBy ? (
                      <span className="invite__url muted">
                        Used by <Link to={`/profile/${encodeURIComponent(invite.usedBy)}`}>@{invite.usedBy}</Link>
                      </span>
                    ) : (
                      <span className="invite__url muted">This invite has been used.</span>
                    )}
                  </div>
                  {isAvailable ? (
                    <button
                      type="button"
                      className={copied ? 'btn btn--sm btn--soft invite__copy is-copied' : 'btn btn--sm btn--primary invite__copy'}
                      onClick={() => copy(invite)}
                      aria-live="polite"
                    >
                      {copied ? <CheckIcon size={16} /> : <CopyIcon size={16} />}
                      {copied ? 'Copied!' : 'Copy URL'}
                    </button>
                  ) : (
                    <span className="badge invite__used">Used</span>
                  )}
                </li>
              );
            })}
          </ul>
        </>
      ) : null}

      {popup ? <MessagePopup message={popup} onClose={() => setPopup(null)} /> : null}
    </div>
  );
}
