import { useCallback, useEffect, useState } from 'react';
import { useAtomValue, useStore } from 'jotai';
import { Link } from 'react-router-dom';
import { CONVERSATIONS_ERROR } from '../api/conversations';
import { isAbortError } from '../api/client';
import type { ConversationView } from '../api/types';
import { ChatIcon, GiftIcon, PlusIcon } from '../components/Icons';
import { Avatar } from '../components/ProfileImages';
import { PageSpinner } from '../components/Spinner';
import { useNow } from '../components/useNow';
import { usePageTitle } from '../components/usePageTitle';
import { appLocale, formatRelativeTime } from '../format';
import { truncatePreview } from '../messageText';
import { conversationUnreadAtom, conversationsAtom, refreshConversations, useReconnected } from '../state/realtime';
import { userAtom } from '../state/session';
import './ConversationsPage.css';

export function otherPartyName(conversation: ConversationView): string {
  const { otherUser } = conversation;
  return otherUser.anonymous ? 'Anonymous' : otherUser.displayName || otherUser.username;
}

function preview(conversation: ConversationView): string {
  const last = conversation.lastMessage;
  if (!last) return 'No messages yet';
  const text = truncatePreview(last.text);
  return last.mine ? `You: ${text}` : text;
}

/** The inbox (SPEC section 2, /conversations): newest first, kept live by the session's socket. */
export function ConversationsPage() {
  usePageTitle('Messages');
  const user = useAtomValue(userAtom);
  const userId = user?._id;
  const store = useStore();
  const conversations = useAtomValue(conversationsAtom);
  const unread = useAtomValue(conversationUnreadAtom);
  const [error, setError] = useState(false);
  const [loading, setLoading] = useState(true);
  const now = useNow();
  const locale = appLocale();

  /** Fetches the inbox; every state change happens when the answer arrives. */
  const load = useCallback(
    (signal?: AbortSignal) => {
      if (!userId) return;
      refreshConversations(store, userId, signal).then(
        () => {
          setError(false);
          setLoading(false);
        },
        (err: unknown) => {
          if (isAbortError(err) || signal?.aborted) return;
          setError(true);
          setLoading(false);
        },
      );
    },
    [userId, store],
  );

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load]);

  // After a dropped connection: conversations that started meanwhile.
  useReconnected(load);

  const retry = () => {
    setLoading(true);
    setError(false);
    load();
  };

  const list = conversations ?? [];

  return (
    <div className="inbox">
      <header className="page-header">
        <h1>Messages</h1>
        <p>Every gift you give or receive opens a conversation here.</p>
      </header>

      {error ? (
        <div className="alert inbox__error" role="alert">
          <p>{CONVERSATIONS_ERROR}</p>
          <button type="button" className="btn btn--sm" onClick={retry} disabled={loading}>
            Try again
          </button>
        </div>
      ) : null}

      {conversations === null && loading ? <PageSpinner label="Loading conversations" /> : null}

      {conversations !== null && list.length === 0 && !error ? (
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
            const count = unread[conversation._id] ?? conversation.unreadCount;
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
                        {conversation.youAreAnonymous ? <span className="inbox__tag">you gave anonymously</span> : null}
                      </span>
                      {last ? (
                        <time className="inbox__time" dateTime={last.createdAt}>
                          {formatRelativeTime(last.createdAt, now, locale)}
                        </time>
                      ) : null}
                    </span>
                    <span className="inbox__bottom">
                      <span className="inbox__preview">{preview(conversation)}</span>
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
    </div>
  );
}
