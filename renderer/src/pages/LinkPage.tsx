import { useEffect, useId, useState } from 'react';
import { MoneyInput } from '../components/MoneyInput';
import { useAtomValue } from 'jotai';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { ApiError, errorMessage, isAbortError } from '../api/client';
import { acceptLink, giveToLink, hasResponded, openLink } from '../api/links';
import type { LinkView, ProfileUser } from '../api/types';
import { getUserByUsername } from '../api/users';
import { INVALID_AMOUNT } from '../components/BalanceDialog';
import { ConfirmPopup } from '../components/ConfirmPopup';
import { CopyLink } from '../components/CopyLink';
import { ChatIcon, CheckIcon, ClockIcon, CoinsIcon, EyeIcon, LockIcon, PackageIcon, UsersIcon } from '../components/Icons';
import { MessagePopup } from '../components/MessagePopup';
import { Avatar } from '../components/ProfileImages';
import { PageSpinner, Spinner } from '../components/Spinner';
import { useNow } from '../components/useNow';
import { usePageTitle } from '../components/usePageTitle';
import { formatAmount, formatDollars, formatRelativeTime, formatTimeLeft, isValidAmount, parseDollars } from '../format';
import { randomUuid } from '../ids';
import { isOwnLink, linkUrl, linkWhat } from '../linkText';
import { useOpenBalanceDialog, useRefreshBalance } from '../state/balance';
import { fromLocation } from '../state/navigation';
import { balanceAtom, userAtom } from '../state/session';
import { getVisitorSessionId } from '../state/visitorSession';
import './LinkPage.css';

/** SPEC sections 2 and 8, as written. */
export const LINK_NOT_FOUND = 'Link not found';
export const LINK_GONE = 'Link is no longer available.';
export const LINK_LOAD_FAILED = 'An error occurred';
export const ALREADY_USED = "you can't use this link more than once";
export const RESPONDED_CHECK_FAILED = 'An error occurred. Please try again later.';
export const ACCEPT_FAILED = 'An error occured when trying to use this link. Please try again later.';
export const GIVE_FAILED = 'Failed to update post and balance';
export const QUICK_AMOUNTS = [1, 5, 10] as const;

function linkLoadError(err: unknown): string {
  if (err instanceof ApiError && err.status === 404) return LINK_NOT_FOUND;
  if (err instanceof ApiError && err.status === 410) return LINK_GONE;
  return errorMessage(err, LINK_LOAD_FAILED);
}

type LoadState =
  | { kind: 'loading'; key: string }
  | { kind: 'ready'; key: string; link: LinkView }
  | { kind: 'error'; key: string; message: string };

type Responded = 'unknown' | 'yes' | 'no' | { error: string };

interface Outcome {
  text: string;
  conversationId: string;
}

export function LinkPage() {
  const { username = '' } = useParams();
  const user = useAtomValue(userAtom);
  const navigate = useNavigate();
  const key = `${username.toLowerCase()}|${user?._id ?? ''}`;
  const [state, setState] = useState<LoadState>({ kind: 'loading', key });
  const current: LoadState = state.key === key ? state : { kind: 'loading', key };

  useEffect(() => {
    const controller = new AbortController();
    openLink(username, getVisitorSessionId(), controller.signal).then(
      ({ updatedLink }) => setState({ kind: 'ready', key, link: updatedLink }),
      (err: unknown) => {
        if (isAbortError(err) || controller.signal.aborted) return;
        setState({ kind: 'error', key, message: linkLoadError(err) });
      },
    );
    return () => controller.abort();
  }, [username, key]);

  usePageTitle(current.kind === 'ready' ? `@${current.link.creatorUsername}'s link` : 'Link');

  if (current.kind === 'loading') return <PageSpinner label="Loading link" />;
  if (current.kind === 'error') {
    return (
      <div className="link-page">
        <MessagePopup message={current.message} onClose={() => navigate('/')} />
      </div>
    );
  }
  return (
    <LinkDetails
      link={current.link}
      onChange={(link) => setState({ kind: 'ready', key, link })}
    />
  );
}

function LinkDetails({ link, onChange }: { link: LinkView; onChange: (link: LinkView) => void }) {
  const user = useAtomValue(userAtom);
  const location = useLocation();
  const mine = isOwnLink(link, user?.username);
  const [creator, setCreator] = useState<ProfileUser | null>(null);
  const { details } = link;
  const give = details.giveorreceive === 'give';

  // The creator's picture and name for signed-in viewers (profiles are not public).
  useEffect(() => {
    if (!user || mine) return;
    const controller = new AbortController();
    getUserByUsername(link.creatorUsername, controller.signal).then(
      (profile) => setCreator(profile),
      () => {},
    );
    return () => controller.abort();
  }, [user, mine, link.creatorUsername]);

  const profile = mine ? user : creator;
  const name = profile?.displayName || `@${link.creatorUsername}`;
  const who = mine ? 'You are' : `@${link.creatorUsername} is`;
  const left =
    give && details.type === 'currency' && details.initialQuantity > 1
      ? `${details.remainingQuantity} of ${details.initialQuantity} left`
      : null;

  return (
    <div className="link-page">
      <article className="card link-hero" aria-labelledby="link-title">
        <div className="link-hero__creator">
          <Avatar src={profile?.profilePicture} name={name} size={48} />
          <div>
            <p className="link-hero__name">{name}</p>
            <p className="muted small">
              {profile?.displayName ? `@${link.creatorUsername} · ` : ''}
              {formatRelativeTime(link.createdAt)}
            </p>
          </div>
        </div>

        <div className={give ? 'link-hero__gift link-hero__gift--give' : 'link-hero__gift'}>
          <span className="link-hero__media" aria-hidden="true">
            {details.type === 'item' && details.photo ? (
              <img src={details.photo} alt="" width={96} height={96} />
            ) : details.type === 'item' ? (
              <PackageIcon size={36} />
            ) : (
              <CoinsIcon size={36} />
            )}
          </span>
          <div className="link-hero__text">
            <p className="link-hero__eyebrow">{give ? 'Gift link' : 'Gift request'}</p>
            <h1 id="link-title" className="link-hero__title">
              {who} {give ? 'giving' : 'requesting'} <span className="link-hero__what">{linkWhat(link)}</span>
            </h1>
            {details.type === 'item' ? (
              <p className="muted small">{formatDollars(details.amount)} with shipping</p>
            ) : null}
            {left ? <p className="link-hero__left">{left}</p> : null}
          </div>
        </div>
      </article>

      {!user ? (
        <section className="card link-actions link-actions--visitor" aria-label="Log in to use this link">
          <LockIcon size={22} />
          <p>Log in or register to {give ? 'accept this gift' : 'give to this link'}.</p>
          <div className="link-actions__row">
            <Link className="btn btn--primary" to="/login" state={fromLocation(location)}>
              Login
            </Link>
            <Link className="btn" to="/register" state={fromLocation(location)}>
              Register
            </Link>
          </div>
        </section>
      ) : mine ? (
        <OwnerView link={link} />
      ) : (
        <ResponderView link={link} onChange={onChange} />
      )}
    </div>
  );
}

function OwnerView({ link }: { link: LinkView }) {
  const now = useNow(30_000);
  const { details, metrics } = link;
  return (
    <>
      <section className="card link-metrics" aria-labelledby="link-metrics-title">
        <h2 id="link-metrics-title">Link Metrics</h2>
        <dl className="link-metrics__grid">
          <div className="link-metrics__wide">
            <dt>{details.type === 'item' ? 'Item' : 'Amount'}</dt>
            <dd>{details.type === 'item' ? (details.title ?? 'Item') : formatDollars(details.amount)}</dd>
          </div>
          <div className="link-metrics__wide">
            <dt>
              <ClockIcon size={16} /> Time left
            </dt>
            <dd>{formatTimeLeft(link.expiresAt, now)}</dd>
          </div>
          {details.type === 'currency' ? (
            <>
              <div>
                <dt>Available</dt>
                <dd>{details.remainingQuantity}</dd>
              </div>
              <div>
                <dt>Initial quantity</dt>
                <dd>{details.initialQuantity}</dd>
              </div>
            </>
          ) : null}
          <div>
            <dt>
              <EyeIcon size={16} /> Views
            </dt>
            <dd>{metrics?.views ?? 0}</dd>
          </div>
          <div>
            <dt>
              <UsersIcon size={16} /> Visitors
            </dt>
            <dd>{metrics?.visitorCount ?? 0}</dd>
          </div>
        </dl>
        <Link className="btn btn--gradient" to={`/manage-subscription/${encodeURIComponent(link.creatorUsername)}`}>
          Subscribe to see visitors
        </Link>
      </section>
      <section className="card">
        <CopyLink url={linkUrl(link.creatorUsername)} label="Share your link" />
      </section>
    </>
  );
}

function ResponderView({ link, onChange }: { link: LinkView; onChange: (link: LinkView) => void }) {
  const [responded, setResponded] = useState<{ linkId: string; value: Responded } | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const current: Responded = responded && responded.linkId === link.id ? responded.value : 'unknown';
  const refreshBalance = useRefreshBalance();

  useEffect(() => {
    const controller = new AbortController();
    hasResponded(link.creatorUsername, controller.signal).then(
      (answer) => setResponded({ linkId: link.id, value: answer.responded ? 'yes' : 'no' }),
      (err: unknown) => {
        if (isAbortError(err) || controller.signal.aborted) return;
        const message =
          err instanceof ApiError && err.status >= 400 && err.status < 500
            ? errorMessage(err, RESPONDED_CHECK_FAILED)
            : RESPONDED_CHECK_FAILED;
        setResponded({ linkId: link.id, value: { error: message } });
      },
    );
    return () => controller.abort();
  }, [link.id, link.creatorUsername]);

  function succeeded(result: Outcome) {
    setOutcome(result);
    setResponded({ linkId: link.id, value: 'yes' });
    onChange({
      ...link,
      details: { ...link.details, remainingQuantity: Math.max(0, link.details.remainingQuantity - 1) },
    });
    void refreshBalance();
  }

  if (outcome) {
    return (
      <section className="card link-actions link-actions--done" aria-labelledby="link-outcome">
        <div className="link-actions__done-icon">
          <CheckIcon size={26} />
        </div>
        <h2 id="link-outcome" role="status">
          {outcome.text}
        </h2>
        <Link className="btn btn--primary" to={`/messages/${encodeURIComponent(outcome.conversationId)}`}>
          <ChatIcon size={18} />
          Open conversation
        </Link>
      </section>
    );
  }

  if (current === 'unknown') {
    return (
      <section className="card link-actions">
        <Spinner label="Checking this link" />
      </section>
    );
  }
  if (typeof current === 'object') {
    return (
      <section className="card link-actions">
        <div className="alert" role="alert">
          {current.error}
        </div>
      </section>
    );
  }
  if (current === 'yes') {
    return (
      <section className="card link-actions">
        <p className="link-actions__used" role="status">
          {ALREADY_USED}
        </p>
      </section>
    );
  }
  return link.details.giveorreceive === 'give' ? (
    <AcceptAction link={link} onDone={succeeded} />
  ) : (
    <GiveAction link={link} onDone={succeeded} />
  );
}

function AcceptAction({ link, onDone }: { link: LinkView; onDone: (outcome: Outcome) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function accept() {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const result = await acceptLink(link.creatorUsername, randomUuid());
      onDone({ text: result.newMessage?.text || `You received ${linkWhat(link)}!`, conversationId: result.conversationId });
    } catch (err) {
      setError(errorMessage(err, ACCEPT_FAILED));
      setBusy(false);
    }
  }

  return (
    <section className="card link-actions" aria-label="Use this link">
      <p>
        {link.details.type === 'item'
          ? 'Accept and this item is ordered for you.'
          : `Accept and ${formatDollars(link.details.amount)} goes to your balance.`}
      </p>
      {error ? (
        <div className="alert" role="alert">
          {error}
        </div>
      ) : null}
      <button type="button" className="btn btn--gradient btn--block" onClick={() => void accept()} disabled={busy}>
        {busy ? <Spinner size={18} light label="Accepting" /> : null}
        Accept
      </button>
    </section>
  );
}

function GiveAction({ link, onDone }: { link: LinkView; onDone: (outcome: Outcome) => void }) {
  const balance = useAtomValue(balanceAtom);
  const openBalanceDialog = useOpenBalanceDialog();
  const customId = useId();
  const isItem = link.details.type === 'item';
  const [quick, setQuick] = useState<number | null>(null);
  const [custom, setCustom] = useState('');
  const [confirming, setConfirming] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const amount = isItem ? link.details.amount : quick ?? parseDollars(custom);
  const valid = isValidAmount(amount);
  const short = valid && amount > balance;

  function startGive() {
    setError(null);
    if (!valid) {
      setError(INVALID_AMOUNT);
      return;
    }
    setConfirming(amount);
  }

  async function give(value: number) {
    setBusy(true);
    try {
      const result = await giveToLink(link.id, link.details.type, value, randomUuid());
      setConfirming(null);
      onDone({
        text: isItem ? `You gave ${link.details.title ?? 'this item'}!` : `You gave ${formatDollars(result.give.amount)}!`,
        conversationId: result.conversationId,
      });
    } catch (err) {
      setConfirming(null);
      setError(errorMessage(err, GIVE_FAILED));
      setBusy(false);
    }
  }

  return (
    <section className="card link-actions" aria-label="Give to this link">
      {isItem ? (
        <p>
          Give this item for <strong>{formatDollars(link.details.amount)}</strong> (price and shipping).
        </p>
      ) : (
        <fieldset className="give-amounts">
          <legend>Choose an amount</legend>
          <div className="give-amounts__quick">
            {QUICK_AMOUNTS.map((value) => (
              <button
                key={value}
                type="button"
                className={quick === value ? 'btn give-amounts__button is-selected' : 'btn give-amounts__button'}
                aria-pressed={quick === value}
                onClick={() => {
                  setQuick(value);
                  setCustom('');
                  setError(null);
                }}
              >
                {formatAmount(value)}
              </button>
            ))}
          </div>
          <div className="field">
            <label htmlFor={customId}>Other amount</label>
            <MoneyInput
              id={customId}
              value={custom}
              onChange={(event) => {
                setCustom(event.target.value);
                setQuick(null);
                setError(null);
              }}
            />
          </div>
        </fieldset>
      )}
      <p className="muted small">Your balance: {formatDollars(balance)}</p>
      {error ? (
        <div className="alert" role="alert">
          {error}
        </div>
      ) : null}
      {short ? (
        <button type="button" className="btn btn--gradient btn--block" onClick={openBalanceDialog}>
          Add Funds
        </button>
      ) : (
        <button type="button" className="btn btn--gradient btn--block" onClick={startGive} disabled={busy}>
          {busy ? <Spinner size={18} light label="Giving" /> : null}
          Give
        </button>
      )}
      {confirming !== null ? (
        <ConfirmPopup
          message={`Are you sure you want to give ${formatAmount(confirming)}?`}
          primaryLabel="Yes"
          onPrimary={() => void give(confirming)}
          secondaryLabel="No"
          onSecondary={() => setConfirming(null)}
          busy={busy}
        />
      ) : null}
    </section>
  );
}
