import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { CONVERSATIONS_ERROR, inboxList, useConversationsQuery } from '../../api/conversations';
import type { ConversationView } from '../../api/types';
import { ChatIcon, GiftIcon, PlusIcon } from '../../components/Icons';
import { Avatar } from '../../components/ProfileImages';
import { RetryAlert } from '../../components/RetryAlert';
import { PageSpinner, Spinner } from '../../components/Spinner';
import { useInfiniteScroll } from '../../components/useInfiniteScroll';
import { useNow } from '../../components/useNow';
import { usePageTitle } from '../../components/usePageTitle';
import { VerifiedBadge } from '../../components/VerifiedBadge';
import { appLocale, formatRelativeTime } from '../../format';
import { inboxPreview } from '../../messageText';
import { userAtom } from '../../state/session';
import './ConversationsPage.css';

export function otherPartyName(conversation: ConversationView): string {
  const { otherUser } = conversation;
  return otherUser.anonymous ? 'Anonymous' : otherUser.displayName || otherUser.username;
}

/** The inbox (PRODUCT.md §2, /conversations): newest first, kept live by the session's socket. */
export function ConversationsPage() {
  usePageTitle('Messages');
  const user = useAtomValue(userAtom);
  // The inbox is kept live by the session's socket, and read again after a dropped connection.
  const query = useConversationsQuery(user?._id ?? '');
  const { data, isPending, isFetching, isFetchingNextPage, isFetchNextPageError, hasNextPage, fetchNextPage, refetch } = query;
  // The first page's error; a later page's failure is shown where more would load.
  const error = query.isError && !isFetchNextPageError;
  const conversations = data ? inboxList(data) : undefined;
  // 25 a page: the next one loads while the last rows are still below the screen.
  const sentinel = useInfiniteScroll(query, { rootMargin: '400px' });
  const now = useNow();
  const locale = appLocale();

  const list = conversations ?? [];

  return (
    <div className="inbox">
      <header className="page-header">
        <h1>Messages</h1>
        <p>Every gift you give or receive opens a conversation here.</p>
      </header>

      {error ? (
        <RetryAlert className="inbox__error" message={CONVERSATIONS_ERROR} onRetry={() => void refetch()} disabled={isFetching} />
      ) : null}

      {isPending ? <PageSpinner label="Loading conversations" /> : null}

      {conversations && list.length === 0 && !error ? (
        <div className="card empty-state">
          <div className="empty-state__icon">
            <ChatIcon size={28} />
          </div>
          <h2>No conversations yet</h2>
          <p className="muted">When you give or receive a gift, a conversation with the other person starts here.</p>
          <Link className="btn btn--soft" to="/share">
            <PlusIcon size={18} />
            Create a link
          </Link>
        </div>
      ) : null}

      {list.length > 0 ? (
        <ul className="inbox__list" aria-label="Conversations">
          {list.map((conversation) => {
            const count = conversation.unreadCount;
            const name = otherPartyName(conversation);
            const last = conversation.lastMessage;
            return (
              <li key={conversation._id}>
                <Link
                  to={`/messages/${encodeURIComponent(conversation._id)}`}
                  className={count > 0 ? 'inbox__row is-unread' : 'inbox__row'}
                >
                  <span className="inbox__avatar">
                    {conversation.otherUser.anonymous ? (
                      <span className="inbox__anonymous" aria-hidden="true">
                        <GiftIcon size={22} />
                      </span>
                    ) : (
                      <Avatar src={conversation.otherUser.profilePicture} name={name} size={48} />
                    )}
                  </span>
                  <span className="inbox__body">
                    <span className="inbox__top">
                      <span className="inbox__name">
                        {name}
                        {!conversation.otherUser.anonymous && conversation.otherUser.isSubscribed ? (
                          <VerifiedBadge size={16} className="verified-badge--inline" />
                        ) : null}
                        {conversation.youAreAnonymous ? <span className="inbox__tag">you gave anonymously</span> : null}
                      </span>
                      {last ? (
                        <time className="inbox__time" dateTime={last.createdAt}>
                          {formatRelativeTime(last.createdAt, now, locale)}
                        </time>
                      ) : null}
                    </span>
                    <span className="inbox__bottom">
                      <span className="inbox__preview">{inboxPreview(last)}</span>
                      {count > 0 ? (
                        <span className="inbox__unread">
                          <span aria-hidden="true">{count > 99 ? '99+' : count}</span>
                          <span className="visually-hidden">{count === 1 ? '1 unread message' : `${count} unread messages`}</span>
                        </span>
                      ) : null}
                    </span>
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      ) : null}

      {hasNextPage && !error ? (
        <div ref={sentinel} className="inbox__more">
          {isFetchNextPageError ? (
            <RetryAlert className="inbox__error" message={CONVERSATIONS_ERROR} onRetry={() => void fetchNextPage()} disabled={isFetching} />
          ) : (
            <button type="button" className="btn btn--sm" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
              {isFetchingNextPage ? <Spinner size={16} label="Loading more" /> : null}
              Show more
            </button>
          )}
        </div>
      ) : null}
    </div>
  );
}
