import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ACCEPT_FAILED, ALREADY_USED, RESPONDED_CHECK_FAILED } from '../../../../api/contract/texts';
import { ApiError, errorMessage } from '../../api/client';
import { useAcceptLink, useGive, useRespondedQuery } from '../../api/links';
import type { LinkView } from '../../api/types';
import { ChatIcon, CheckIcon } from '../../components/Icons';
import { NoteField } from '../../components/NoteField';
import { Spinner } from '../../components/Spinner';
import { formatDollars } from '../../format';
import { linkWhat } from '../../linkText';
import { GiveAction } from './GiveAction';

function respondedErrorMessage(err: unknown): string {
  return err instanceof ApiError && err.status >= 400 && err.status < 500
    ? errorMessage(err, RESPONDED_CHECK_FAILED)
    : RESPONDED_CHECK_FAILED;
}

/**
 * Someone else's link, for a signed-in viewer: Accept (a give link) or Give (a receive link),
 * once; then what happened and the conversation it opened.
 */
export function ResponderView({ link, viewerId }: { link: LinkView; viewerId: string }) {
  const responded = useRespondedQuery(link.creatorUsername, viewerId);
  const accept = useAcceptLink(link, viewerId);
  const give = useGive(link, viewerId);
  const isItem = link.details.type === 'item';

  // What the use answered is the outcome to show.
  const outcome = accept.data
    ? { text: accept.data.newMessage?.text || `You received ${linkWhat(link)}!`, conversationId: accept.data.conversationId }
    : give.data
      ? {
          text: isItem ? `You gave ${link.details.title ?? 'this item'}!` : `You gave ${formatDollars(give.data.give.amount)}!`,
          conversationId: give.data.conversationId,
        }
      : null;

  if (outcome) {
    return (
      <section className="card link-actions link-actions--done" aria-labelledby="link-outcome">
        <div className="link-actions__done-icon">
          <CheckIcon size={26} />
        </div>
        {/* A heading may not be a live region itself (axe aria-allowed-role): the region holds it. */}
        <div role="status">
          <h2 id="link-outcome">{outcome.text}</h2>
        </div>
        <Link className="btn btn--primary" to={`/messages/${encodeURIComponent(outcome.conversationId)}`}>
          <ChatIcon size={18} />
          Open conversation
        </Link>
      </section>
    );
  }

  // While a use is under way its own answer decides (its cache updates land a moment before it).
  const using = accept.isPending || give.isPending;
  if (!using && responded.isPending) {
    return (
      <section className="card link-actions">
        <Spinner label="Checking this link" />
      </section>
    );
  }
  if (!using && responded.isError) {
    return (
      <section className="card link-actions">
        <div className="alert" role="alert">
          {respondedErrorMessage(responded.error)}
        </div>
      </section>
    );
  }
  if (!using && responded.data?.responded) {
    return (
      <section className="card link-actions">
        <p className="link-actions__used" role="status">
          {ALREADY_USED}
        </p>
      </section>
    );
  }
  return link.details.giveorreceive === 'give' ? <AcceptAction link={link} accept={accept} /> : <GiveAction link={link} give={give} />;
}

function AcceptAction({ link, accept }: { link: LinkView; accept: ReturnType<typeof useAcceptLink> }) {
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState('');

  function run() {
    if (accept.isPending) return;
    setError(null);
    accept.mutate(note, { onError: (err) => setError(errorMessage(err, ACCEPT_FAILED)) });
  }

  return (
    <section className="card link-actions" aria-label="Use this link">
      <p>
        {link.details.type === 'item'
          ? 'Accept and this item is ordered for you.'
          : `Accept and ${formatDollars(link.details.amount)} goes to your balance.`}
      </p>
      <NoteField value={note} onChange={setNote} disabled={accept.isPending} />
      {error ? (
        <div className="alert" role="alert">
          {error}
        </div>
      ) : null}
      <button type="button" className="btn btn--gradient btn--block" onClick={run} disabled={accept.isPending}>
        {accept.isPending ? <Spinner size={18} light label="Accepting" /> : null}
        Accept
      </button>
    </section>
  );
}
