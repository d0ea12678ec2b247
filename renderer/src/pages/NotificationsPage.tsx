import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useAtomValue, useSetAtom } from 'jotai';
import { Link } from 'react-router-dom';
import { isAbortError } from '../api/client';
import { MARK_READ_ERROR, NOTIFICATIONS_ERROR, listNotifications, markNotificationsRead } from '../api/notifications';
import type { NotificationView } from '../api/types';
import { BellIcon, CheckIcon, CoinsIcon, GiftIcon, PackageIcon } from '../components/Icons';
import { MessagePopup } from '../components/MessagePopup';
import { PageSpinner } from '../components/Spinner';
import { useNow } from '../components/useNow';
import { usePageTitle } from '../components/usePageTitle';
import { appLocale, formatDollars, formatRelativeTime } from '../format';
import { platform, type NotificationPermissionState } from '../platform';
import { clearUnreadNotificationsAtom, useIncomingNotifications, useReconnected } from '../state/realtime';
import { userAtom } from '../state/session';
import './NotificationsPage.css';

type Filter = 'unread' | 'read';

type ListState = { kind: 'loading' } | { kind: 'ready'; items: NotificationView[] } | { kind: 'error' };

/** The item's title, when the message does not already say it. */
function itemLine(n: NotificationView): string | null {
  if (n.type === 'currency' || !n.ebItemTitle || n.message.includes(n.ebItemTitle)) return null;
  return n.ebItemTitle;
}

/** SPEC section 2, /notifications: unread/read toggle, Mark all read, senders shown anonymously. */
export function NotificationsPage() {
  usePageTitle('Notifications');
  const user = useAtomValue(userAtom);
  const userId = user?._id;
  const clearUnread = useSetAtom(clearUnreadNotificationsAtom);
  const [state, setState] = useState<ListState>({ kind: 'loading' });
  const [filter, setFilter] = useState<Filter>('unread');
  const [marking, setMarking] = useState(false);
  const [popup, setPopup] = useState<string | null>(null);
  const now = useNow();
  const locale = appLocale();

  const load = useCallback(
    (signal?: AbortSignal) => {
      if (!userId) return;
      listNotifications(userId, signal).then(
        (items) => setState({ kind: 'ready', items }),
        (err: unknown) => {
          if (isAbortError(err) || signal?.aborted) return;
          setState((s) => (s.kind === 'ready' ? s : { kind: 'error' }));
        },
      );
    },
    [userId],
  );

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load]);

  // Notifications have no catch-up: after a dropped connection, read them again.
  useReconnected(load);

  // New ones arrive live, unread, on top.
  const onNotification = useCallback((notification: NotificationView) => {
    setState((s) =>
      s.kind === 'ready' && !s.items.some((n) => n._id === notification._id)
        ? { kind: 'ready', items: [notification, ...s.items] }
        : s,
    );
  }, []);
  useIncomingNotifications(onNotification);

  async function markAllRead() {
    if (!userId || marking) return;
    setMarking(true);
    try {
      await markNotificationsRead(userId);
    } catch {
      setMarking(false);
      setPopup(MARK_READ_ERROR);
      return;
    }
    clearUnread();
    try {
      const items = await listNotifications(userId);
      setState({ kind: 'ready', items });
    } catch {
      // They are read on the server: show them so even if the list could not be re-read.
      setState((s) => (s.kind === 'ready' ? { kind: 'ready', items: s.items.map((n) => ({ ...n, read: 1 as const })) } : s));
    }
    setMarking(false);
  }

  const items = state.kind === 'ready' ? state.items : [];
  const unreadCount = items.filter((n) => n.read === 0).length;
  const readCount = items.length - unreadCount;
  const shown = items.filter((n) => (filter === 'unread' ? n.read === 0 : n.read === 1));

  return (
    <div className="notifications">
      <header className="page-header notifications__header">
        <div>
          <h1>Notifications</h1>
          <p>Gifts you receive show up here. Givers always stay anonymous.</p>
        </div>
      </header>

      <SystemNotificationsPrompt />

      <div className="notifications__toolbar">
        <fieldset className="notifications__filter">
          <legend className="visually-hidden">Show</legend>
          {(['unread', 'read'] as const).map((value) => (
            <label key={value} className="notifications__filter-option">
              <input
                type="radio"
                name="notification-filter"
                value={value}
                checked={filter === value}
                onChange={() => setFilter(value)}
              />
              <span>{value === 'unread' ? 'Unread' : 'Read'}</span>
              {state.kind === 'ready' ? (
                <span className="notifications__filter-count" aria-hidden="true">
                  {value === 'unread' ? unreadCount : readCount}
                </span>
              ) : null}
            </label>
          ))}
        </fieldset>
        <button
          type="button"
          className="btn btn--sm btn--soft"
          onClick={() => void markAllRead()}
          disabled={marking || state.kind !== 'ready' || unreadCount === 0}
        >
          <CheckIcon size={16} />
          {marking ? 'Marking…' : 'Mark all read'}
        </button>
      </div>

      {state.kind === 'loading' ? <PageSpinner label="Loading notifications" /> : null}

      {state.kind === 'error' ? (
        <div className="alert notifications__error" role="alert">
          <p>{NOTIFICATIONS_ERROR}</p>
          <button
            type="button"
            className="btn btn--sm"
            onClick={() => {
              setState({ kind: 'loading' });
              load();
            }}
          >
            Try again
          </button>
        </div>
      ) : null}

      {state.kind === 'ready' && shown.length === 0 ? (
        <div className="card empty-state">
          <div className="empty-state__icon">
            <BellIcon size={28} />
          </div>
          <h2>{filter === 'unread' ? "You're all caught up" : 'No read notifications'}</h2>
          <p className="muted">
            {filter === 'unread'
              ? 'New gifts will show up here the moment they arrive.'
              : 'Notifications you have marked read are kept here.'}
          </p>
        </div>
      ) : null}

      {shown.length > 0 ? (
        <ul className="notifications__list" aria-label={filter === 'unread' ? 'Unread notifications' : 'Read notifications'}>
          {shown.map((n) => (
            <li key={n._id}>
              <NotificationRow notification={n} now={now} locale={locale} />
            </li>
          ))}
        </ul>
      ) : null}

      {popup ? <MessagePopup title="Notifications" message={popup} onClose={() => setPopup(null)} /> : null}
    </div>
  );
}

function NotificationRow({ notification: n, now, locale }: { notification: NotificationView; now: number; locale: ReturnType<typeof appLocale> }) {
  const line = itemLine(n);
  const amount = n.type === 'currency' && n.amount > 0 ? formatDollars(n.amount) : null;
  const unread = n.read === 0;
  const body: ReactNode = (
    <>
      <span className="notification__media" aria-hidden="true">
        {n.ebItemPhoto ? (
          <img src={n.ebItemPhoto} alt="" loading="lazy" width={52} height={52} />
        ) : n.type === 'currency' ? (
          <CoinsIcon size={24} />
        ) : n.type === 'item' || n.type === 'wishlist' ? (
          <PackageIcon size={24} />
        ) : (
          <GiftIcon size={24} />
        )}
      </span>
      <span className="notification__body">
        <span className="notification__message">{n.message}</span>
        {line ? <span className="notification__gift">{line}</span> : null}
        <span className="notification__meta">
          From Anonymous ·{' '}
          <time dateTime={n.createdAt} lang={locale === 'zh' ? 'zh' : undefined}>
            {formatRelativeTime(n.createdAt, now, locale)}
          </time>
        </span>
      </span>
      {amount ? <span className="notification__amount">{amount}</span> : null}
      {unread ? (
        <span className="notification__dot">
          <span className="visually-hidden">Unread</span>
        </span>
      ) : null}
    </>
  );
  const className = unread ? 'notification is-unread' : 'notification';
  return n.conversationId ? (
    <Link to={`/messages/${encodeURIComponent(n.conversationId)}`} className={`${className} is-link`}>
      {body}
    </Link>
  ) : (
    <div className={className}>{body}</div>
  );
}

/** Offers system notifications; the browser is asked only when the user clicks. */
function SystemNotificationsPrompt() {
  const [permission, setPermission] = useState<NotificationPermissionState | null>(null);

  useEffect(() => {
    let live = true;
    platform.notifications.permission().then(
      (p) => {
        if (live) setPermission(p);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);

  if (permission === 'default') {
    return (
      <div className="card notifications__prompt">
        <span className="notifications__prompt-icon" aria-hidden="true">
          <BellIcon size={20} />
        </span>
        <p>Get a notification when a gift or a message arrives while Giftlink is in the background.</p>
        <button
          type="button"
          className="btn btn--sm btn--primary"
          onClick={() => {
            platform.notifications.requestPermission().then(setPermission, () => undefined);
          }}
        >
          Turn on notifications
        </button>
      </div>
    );
  }
  if (permission === 'denied') {
    return (
      <p className="notifications__blocked muted small" role="note">
        Notifications are blocked for Giftlink in your browser settings.
      </p>
    );
  }
  return null;
}
