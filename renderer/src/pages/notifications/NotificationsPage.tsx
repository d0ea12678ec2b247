import { useEffect, useState, type ReactNode } from 'react';
import { useAtomValue, useSetAtom } from 'jotai';
import { Link } from 'react-router-dom';
import { MARK_READ_ERROR, NOTIFICATIONS_ERROR, useMarkNotificationsRead, useNotificationsQuery } from '../../api/notifications';
import type { NotificationView } from '../../api/types';
import { BellIcon, CheckIcon, CoinsIcon, GiftIcon, PackageIcon } from '../../components/Icons';
import { MessagePopup } from '../../components/MessagePopup';
import { PageSpinner } from '../../components/Spinner';
import { RetryAlert } from '../../components/RetryAlert';
import { useNow } from '../../components/useNow';
import { usePageTitle } from '../../components/usePageTitle';
import { appLocale, formatDollars, formatRelativeTime } from '../../format';
import { platform, type NotificationPermissionState } from '../../platform';
import { clearUnreadNotificationsAtom } from '../../state/realtime';
import { userAtom } from '../../state/session';
import './NotificationsPage.css';

type Filter = 'unread' | 'read';

/** The item's title, when the message does not already say it. */
function itemLine(n: NotificationView): string | null {
  if (n.type === 'currency' || !n.ebItemTitle || n.message.includes(n.ebItemTitle)) return null;
  return n.ebItemTitle;
}

/** PRODUCT.md §2, /notifications: unread/read toggle, Mark all read, senders shown anonymously. */
export function NotificationsPage() {
  usePageTitle('Notifications');
  const user = useAtomValue(userAtom);
  const userId = user?._id ?? '';
  const clearUnread = useSetAtom(clearUnreadNotificationsAtom);
  // New ones arrive live, unread, on top; after a dropped connection the list is read again.
  const { data, isPending, isError, refetch } = useNotificationsQuery(userId);
  const markRead = useMarkNotificationsRead(userId);
  const [filter, setFilter] = useState<Filter>('unread');
  const [popup, setPopup] = useState<string | null>(null);
  const now = useNow();
  const locale = appLocale();
  const ready = data !== undefined;

  function markAllRead() {
    if (!userId || markRead.isPending) return;
    markRead.mutate(undefined, {
      onSuccess: () => clearUnread(),
      onError: () => setPopup(MARK_READ_ERROR),
    });
  }

  const items = data ?? [];
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
              <input type="radio" name="notification-filter" value={value} checked={filter === value} onChange={() => setFilter(value)} />
              <span>{value === 'unread' ? 'Unread' : 'Read'}</span>
              {ready ? (
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
          onClick={markAllRead}
          disabled={markRead.isPending || !ready || unreadCount === 0}
        >
          <CheckIcon size={16} />
          {markRead.isPending ? 'Marking…' : 'Mark all read'}
        </button>
      </div>

      {isPending ? <PageSpinner label="Loading notifications" /> : null}

      {isError && !ready ? (
        <RetryAlert className="notifications__error" message={NOTIFICATIONS_ERROR} onRetry={() => void refetch()} />
      ) : null}

      {ready && shown.length === 0 ? (
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

function NotificationRow({
  notification: n,
  now,
  locale,
}: {
  notification: NotificationView;
  now: number;
  locale: ReturnType<typeof appLocale>;
}) {
  const username = useAtomValue(userAtom)?.username;
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
        ) : n.type === 'item' || n.type === 'wishlist' || n.type === 'order' ? (
          <PackageIcon size={24} />
        ) : (
          <GiftIcon size={24} />
        )}
      </span>
      <span className="notification__body">
        <span className="notification__message">{n.message}</span>
        {line ? <span className="notification__gift">{line}</span> : null}
        <span className="notification__meta">
          {n.type === 'order' || n.type === 'subscription' ? 'Giftlink' : 'From Anonymous'} ·{' '}
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
  // An order notification leads to what it asks for: the address in Settings, or the orders.
  const orderTo =
    n.type !== 'order'
      ? null
      : n.giveorreceive === 'receive' && username
        ? `/profile/${encodeURIComponent(username)}/settings#address`
        : '/orders';
  if (orderTo)
    return (
      <Link to={orderTo} className={`${className} is-link`}>
        {body}
      </Link>
    );
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
