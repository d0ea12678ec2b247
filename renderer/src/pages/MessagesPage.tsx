import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { useAtomValue } from 'jotai';
import { Link, useParams } from 'react-router-dom';
import { ApiError, isAbortError } from '../api/client';
import {
  FIND_CONVERSATION_ERROR,
  MESSAGES_ERROR,
  MESSAGE_PAGE_SIZE,
  SEND_ERROR,
  findConversation,
  getMessages,
  postMessage,
} from '../api/conversations';
import type { ConversationView, MessageView, User } from '../api/types';
import { ChevronLeftIcon, CoinsIcon, GiftIcon, PackageIcon, RefreshIcon, SendIcon } from '../components/Icons';
import { Avatar } from '../components/ProfileImages';
import { PageSpinner, Spinner } from '../components/Spinner';
import { usePageTitle } from '../components/usePageTitle';
import { appLocale } from '../format';
import { randomUuid } from '../ids';
import { mergeMessages } from '../messageText';
import {
  connectionStatusAtom,
  conversationsAtom,
  realtimeAtom,
  useIncomingMessages,
  useMarkConversationRead,
  useReconnected,
  type IncomingMessage,
} from '../state/realtime';
import { userAtom } from '../state/session';
import { otherPartyName } from './ConversationsPage';
import './MessagesPage.css';

/** SPEC section 2: the message input starts at this height and grows with its text. */
const INPUT_MIN_HEIGHT = 38;
const INPUT_MAX_HEIGHT = 160;
/** The API refuses longer messages. */
const MESSAGE_MAX_LENGTH = 2000;
/** Older messages load when the list is scrolled this close to its top. */
const LOAD_OLDER_AT_PX = 120;
/** New messages keep the list at the bottom when the reader is this close to it. */
const STICK_TO_BOTTOM_PX = 120;

/** A message on its way (STYLE: a state of its own, shown at once, retried on failure). */
interface Outgoing {
  clientId: string;
  text: string;
  status: 'pending' | 'failed';
}

interface ThreadState {
  messages: MessageView[];
  /** The older page to fetch next. */
  nextPage: number;
  hasMore: boolean;
  status: 'loading' | 'loading-older' | 'idle';
  /** 'missing' when the conversation does not exist or is not the user's. */
  error: null | 'load' | 'older' | 'missing';
}

const initialThread: ThreadState = { messages: [], nextPage: 1, hasMore: true, status: 'loading', error: null };

type ScrollIntent = { kind: 'bottom' } | { kind: 'keep'; fromBottom: number } | null;

export function MessagesPage() {
  const { conversationId = '' } = useParams();
  const user = useAtomValue(userAtom);
  if (!user) return null;
  // A fresh thread per conversation: nothing of one leaks into the next.
  return <Thread key={conversationId} conversationId={conversationId} user={user} />;
}

function dayKey(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
}

function dayLabel(iso: string, now = new Date()): string {
  const d = new Date(iso);
  const today = dayKey(now.toISOString());
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (dayKey(iso) === today) return 'Today';
  if (dayKey(iso) === dayKey(yesterday.toISOString())) return 'Yesterday';
  return d.toLocaleDateString(appLocale(), {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: d.getFullYear() === now.getFullYear() ? undefined : 'numeric',
  });
}

function timeLabel(iso: string): string {
  return new Date(iso).toLocaleTimeString(appLocale(), { hour: 'numeric', minute: '2-digit' });
}

const isVisible = () => document.visibilityState === 'visible';

/** The input grows with its text from 38px, up to a few lines, then scrolls. */
function growInput(el: HTMLTextAreaElement): void {
  el.style.height = 'auto';
  const borders = el.offsetHeight - el.clientHeight;
  el.style.height = `${Math.min(INPUT_MAX_HEIGHT, Math.max(INPUT_MIN_HEIGHT, el.scrollHeight + borders))}px`;
}

function isNearBottom(el: HTMLElement | null): boolean {
  return !el || el.scrollHeight - el.scrollTop - el.clientHeight < STICK_TO_BOTTOM_PX;
}

function Thread({ conversationId, user }: { conversationId: string; user: User }) {
  const connection = useAtomValue(realtimeAtom);
  const connectionStatus = useAtomValue(connectionStatusAtom);
  const cached = useAtomValue(conversationsAtom)?.find((c) => c._id === conversationId) ?? null;
  const [found, setFound] = useState<ConversationView | null>(null);
  const [findFailed, setFindFailed] = useState(false);
  const conversation = found ?? cached;
  const name = conversation ? otherPartyName(conversation) : null;
  usePageTitle(name ?? 'Messages');

  const { begin: beginRead, finish: finishRead } = useMarkConversationRead();
  const [thread, setThread] = useState<ThreadState>(initialThread);
  const [outgoing, setOutgoing] = useState<Outgoing[]>([]);
  const [draft, setDraft] = useState('');
  const scroller = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const scrollIntent = useRef<ScrollIntent>(null);
  const latest = useRef(thread);
  const connectionRef = useRef(connection);
  useLayoutEffect(() => {
    latest.current = thread;
    connectionRef.current = connection;
  });


  // ---- the conversation (header) ----------------------------------------------------------------
  useEffect(() => {
    const controller = new AbortController();
    findConversation(conversationId, controller.signal).then(setFound, (err: unknown) => {
      if (isAbortError(err) || controller.signal.aborted) return;
      setFindFailed(true);
    });
    return () => controller.abort();
  }, [conversationId]);

  // ---- messages: the newest page on open (which marks the conversation read) --------------------
  const loadNewest = useCallback(
    (signal?: AbortSignal) => {
      beginRead(conversationId);
      getMessages(conversationId, 1, signal).then(
        (page) => {
          finishRead(conversationId, page.markedAsRead);
          connectionRef.current?.noteMessages(page.messages);
          scrollIntent.current = { kind: 'bottom' };
          setThread((s) => ({
            messages: mergeMessages(s.messages, page.messages),
            nextPage: 2,
            hasMore: page.messages.length >= MESSAGE_PAGE_SIZE,
            status: 'idle',
            error: null,
          }));
        },
        (err: unknown) => {
          if (isAbortError(err) || signal?.aborted) return;
          const missing = err instanceof ApiError && (err.status === 404 || err.status === 403);
          setThread((s) => ({ ...s, status: 'idle', error: missing ? 'missing' : 'load' }));
        },
      );
    },
    [conversationId, beginRead, finishRead],
  );

  useEffect(() => {
    const controller = new AbortController();
    loadNewest(controller.signal);
    return () => controller.abort();
  }, [loadNewest]);

  /** Re-reads the newest page: marks what arrived read and fills any gap. Only while on screen. */
  const readTimer = useRef<number | undefined>(undefined);
  const unreadWhileHidden = useRef(false);
  const syncRead = useCallback(() => {
    if (!isVisible()) {
      unreadWhileHidden.current = true;
      return;
    }
    beginRead(conversationId);
    window.clearTimeout(readTimer.current);
    readTimer.current = window.setTimeout(() => {
      getMessages(conversationId, 1).then(
        (page) => {
          finishRead(conversationId, page.markedAsRead);
          if (isNearBottom(scroller.current)) scrollIntent.current = { kind: 'bottom' };
          setThread((s) => ({ ...s, messages: mergeMessages(s.messages, page.messages) }));
        },
        () => finishRead(conversationId, 0),
      );
    }, 250);
  }, [conversationId, beginRead, finishRead]);
  useEffect(() => () => window.clearTimeout(readTimer.current), []);

  useEffect(() => {
    const onVisibility = () => {
      if (isVisible() && unreadWhileHidden.current) {
        unreadWhileHidden.current = false;
        syncRead();
      }
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, [syncRead]);

  // After a reconnect the session catches up; re-reading the newest page also covers a thread
  // that held nothing to catch up from.
  const onReconnect = useCallback(() => {
    if (latest.current.status === 'idle' && !latest.current.error) syncRead();
  }, [syncRead]);
  useReconnected(onReconnect);

  // ---- live messages ----------------------------------------------------------------------------
  const onIncoming = useCallback(
    (event: IncomingMessage) => {
      if (event.conversationId !== conversationId) return;
      const { message } = event;
      if (message.mine || isNearBottom(scroller.current)) scrollIntent.current = { kind: 'bottom' };
      setThread((s) => ({ ...s, messages: mergeMessages(s.messages, [message]) }));
      if (message.mine) {
        setOutgoing((list) => {
          if (event.clientId) return list.filter((o) => o.clientId !== event.clientId);
          // Caught up without its clientId (the ack was lost in a disconnect): it did arrive.
          const index = list.findIndex((o) => o.status === 'failed' && o.text === message.text);
          return index === -1 ? list : [...list.slice(0, index), ...list.slice(index + 1)];
        });
      } else {
        syncRead();
      }
    },
    [conversationId, syncRead],
  );
  useIncomingMessages(onIncoming);

  // ---- older pages as the reader scrolls up -----------------------------------------------------
  const loadingOlder = useRef(false);
  const loadOlder = useCallback(() => {
    const s = latest.current;
    if (loadingOlder.current || s.status !== 'idle' || !s.hasMore || (s.error && s.error !== 'older')) return;
    loadingOlder.current = true;
    const page = s.nextPage;
    setThread((t) => ({ ...t, status: 'loading-older', error: null }));
    getMessages(conversationId, page).then(
      (result) => {
        loadingOlder.current = false;
        const el = scroller.current;
        scrollIntent.current = el ? { kind: 'keep', fromBottom: el.scrollHeight - el.scrollTop } : null;
        setThread((t) => ({
          ...t,
          messages: mergeMessages(t.messages, result.messages),
          nextPage: page + 1,
          hasMore: result.messages.length >= MESSAGE_PAGE_SIZE,
          status: 'idle',
        }));
      },
      () => {
        loadingOlder.current = false;
        setThread((t) => ({ ...t, status: 'idle', error: 'older' }));
      },
    );
  }, [conversationId]);

  /** Whether the reader is at the bottom: then the list stays there when it changes size. */
  const stuckToBottom = useRef(true);
  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    stuckToBottom.current = isNearBottom(el);
    if (el.scrollTop < LOAD_OLDER_AT_PX) loadOlder();
  };

  // The list gets shorter when the input grows, an error shows or the phone keyboard opens.
  useEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (stuckToBottom.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // Keep the reader's place after each render that asked for it: at the bottom for new messages,
  // on the same message when older ones are put above.
  useLayoutEffect(() => {
    const el = scroller.current;
    const intent = scrollIntent.current;
    scrollIntent.current = null;
    if (!el || !intent) return;
    el.scrollTop = intent.kind === 'bottom' ? el.scrollHeight : el.scrollHeight - intent.fromBottom;
  });

  // A first page that does not fill the list cannot be scrolled up: fetch the next one now.
  useEffect(() => {
    const el = scroller.current;
    if (thread.status === 'idle' && thread.hasMore && !thread.error && thread.messages.length > 0 && el && el.scrollHeight <= el.clientHeight + LOAD_OLDER_AT_PX)
      loadOlder();
  }, [thread.status, thread.hasMore, thread.error, thread.messages.length, loadOlder]);

  // ---- sending ------------------------------------------------------------------------------------
  const deliver = useCallback(
    async (clientId: string, text: string) => {
      scrollIntent.current = { kind: 'bottom' };
      setOutgoing((list) => {
        const rest = list.filter((o) => o.clientId !== clientId);
        return [...rest, { clientId, text, status: 'pending' }];
      });
      try {
        const message = connection
          ? await connection.send(conversationId, text, clientId)
          : (await postMessage({ conversationId, senderUserId: user._id, text, clientId })).message;
        setThread((s) => ({ ...s, messages: mergeMessages(s.messages, [message]) }));
        setOutgoing((list) => list.filter((o) => o.clientId !== clientId));
      } catch {
        setOutgoing((list) => list.map((o) => (o.clientId === clientId ? { ...o, status: 'failed' } : o)));
      }
    },
    [connection, conversationId, user._id],
  );

  const canSend = draft.trim().length > 0 && thread.error !== 'missing';

  function submit(event?: FormEvent) {
    event?.preventDefault();
    const text = draft.trim();
    if (!text || thread.error === 'missing') return;
    setDraft('');
    if (input.current) {
      input.current.style.height = '';
      input.current.focus();
    }
    void deliver(randomUuid(), text);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter sends, Shift+Enter starts a new line; an IME composition keeps its Enter.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  }


  // ---- render -----------------------------------------------------------------------------------
  const failed = outgoing.some((o) => o.status === 'failed');
  const { messages } = thread;
  const otherLabel = name ?? 'Them';

  if (thread.error === 'missing') {
    return (
      <div className="thread thread--missing">
        <div className="card empty-state">
          <div className="empty-state__icon">
            <GiftIcon size={28} />
          </div>
          <h2>Conversation not found</h2>
          <p className="muted">This conversation does not exist or is not yours.</p>
          <Link className="btn btn--soft" to="/conversations">
            Back to messages
          </Link>
        </div>
      </div>
    );
  }

  return (
    <div className="thread">
      <header className="thread__header">
        <Link to="/conversations" className="btn btn--ghost btn--icon thread__back" aria-label="Back to messages">
          <ChevronLeftIcon size={22} />
        </Link>
        {conversation ? (
          <>
            {conversation.otherUser.anonymous ? (
              <span className="thread__anonymous" aria-hidden="true">
                <GiftIcon size={20} />
              </span>
            ) : (
              <Avatar src={conversation.otherUser.profilePicture} name={otherLabel} size={42} className="thread__avatar" />
            )}
            <div className="thread__who">
              <h1 className="thread__name">{name}</h1>
              <p className="thread__sub">
                {conversation.otherUser.anonymous ? (
                  'Anonymous giver'
                ) : (
                  <>
                    <Link to={`/profile/${encodeURIComponent(conversation.otherUser.username)}`}>@{conversation.otherUser.username}</Link>
                    {conversation.youAreAnonymous ? ' · you are anonymous here' : null}
                  </>
                )}
              </p>
            </div>
          </>
        ) : (
          <div className="thread__who">
            <h1 className="thread__name">Messages</h1>
          </div>
        )}
        {connectionStatus !== 'connected' ? (
          <span className="thread__status" role="status">
            <span className="spinner thread__status-spinner" aria-hidden="true" />
            {connectionStatus === 'connecting' ? 'Connecting…' : 'Reconnecting…'}
          </span>
        ) : null}
      </header>

      {findFailed && !found ? (
        <div className="alert thread__notice" role="alert">
          {FIND_CONVERSATION_ERROR}
        </div>
      ) : null}

      <div className="thread__scroller" ref={scroller} onScroll={onScroll}>
        {thread.status === 'loading-older' ? (
          <div className="thread__older">
            <Spinner size={20} label="Loading older messages" />
          </div>
        ) : null}
        {thread.error === 'older' ? (
          <div className="alert thread__notice" role="alert">
            <p>{MESSAGES_ERROR}</p>
            <button type="button" className="btn btn--sm" onClick={loadOlder}>
              Try again
            </button>
          </div>
        ) : null}
        {!thread.hasMore && messages.length > 0 ? <p className="thread__start">This is the start of your conversation.</p> : null}

        {thread.status === 'loading' ? <PageSpinner label="Loading messages" /> : null}
        {thread.error === 'load' ? (
          <div className="alert thread__notice" role="alert">
            <p>{MESSAGES_ERROR}</p>
            <button
              type="button"
              className="btn btn--sm"
              onClick={() => {
                setThread(initialThread);
                loadNewest();
              }}
            >
              Try again
            </button>
          </div>
        ) : null}
        {thread.status !== 'loading' && !thread.error && messages.length === 0 && outgoing.length === 0 ? (
          <p className="thread__empty muted">No messages yet. Say hello!</p>
        ) : null}

        <ol className="thread__list" aria-label={`Conversation with ${otherLabel}`}>
          {messages.map((message, index) => {
            const previous = messages[index - 1];
            const newDay = !previous || dayKey(previous.createdAt) !== dayKey(message.createdAt);
            return (
              <MessageItem
                key={message._id}
                message={message}
                dayDivider={newDay ? dayLabel(message.createdAt) : null}
                otherLabel={otherLabel}
              />
            );
          })}
          {outgoing.map((o) => (
            <li key={o.clientId} className={o.status === 'failed' ? 'msg msg--mine is-failed' : 'msg msg--mine is-pending'}>
              <div className="msg__bubble">
                <span className="visually-hidden">You: </span>
                {o.text}
              </div>
              {o.status === 'pending' ? (
                <span className="msg__meta">Sending…</span>
              ) : (
                <span className="msg__meta msg__meta--failed">
                  Not sent
                  <button type="button" className="msg__action" onClick={() => void deliver(o.clientId, o.text)}>
                    <RefreshIcon size={14} />
                    Retry
                  </button>
                  <button
                    type="button"
                    className="msg__action msg__action--quiet"
                    onClick={() => setOutgoing((list) => list.filter((x) => x.clientId !== o.clientId))}
                  >
                    Delete
                  </button>
                </span>
              )}
            </li>
          ))}
        </ol>
      </div>

      {failed ? (
        <div className="alert thread__send-error" role="alert">
          {SEND_ERROR}
        </div>
      ) : null}

      <form className="composer" onSubmit={submit}>
        <label htmlFor="message-input" className="visually-hidden">
          Message
        </label>
        <textarea
          id="message-input"
          ref={input}
          className="composer__input"
          rows={1}
          value={draft}
          maxLength={MESSAGE_MAX_LENGTH}
          placeholder="Write a message…"
          onChange={(event) => {
            setDraft(event.target.value);
            growInput(event.target);
          }}
          onKeyDown={onKeyDown}
          enterKeyHint="send"
        />
        <button type="submit" className="btn btn--primary composer__send" disabled={!canSend} aria-label="Send">
          <SendIcon size={18} />
          <span>Send</span>
        </button>
      </form>
    </div>
  );
}

function MessageItem({ message, dayDivider, otherLabel }: { message: MessageView; dayDivider: string | null; otherLabel: string }) {
  const gift = message.messageType === 'gift' ? message.giftDetails : null;
  const who = message.mine ? 'You' : otherLabel;
  const giftTitle = gift && gift.giftType === 'item' && gift.title ? gift.title : message.text;
  // The text when it says more than the title ("You received a gift: <title>!" does not).
  const giftNote = gift && message.text && !message.text.includes(giftTitle) ? message.text : null;
  return (
    <>
      {dayDivider ? (
        <li className="thread__day" aria-hidden="true">
          <span>{dayDivider}</span>
        </li>
      ) : null}
      <li className={message.mine ? 'msg msg--mine' : 'msg'}>
        {gift ? (
          <div className={gift.img ? 'gift-msg gift-msg--photo' : 'gift-msg'}>
            <span className="visually-hidden">{who}: </span>
            <div className="gift-msg__media">
              {gift.img ? (
                <img src={gift.img} alt={gift.title ?? 'Gift'} loading="lazy" />
              ) : gift.giftType === 'item' ? (
                <PackageIcon size={28} />
              ) : (
                <CoinsIcon size={28} />
              )}
            </div>
            <div className="gift-msg__body">
              <span className="gift-msg__eyebrow">
                <GiftIcon size={14} />
                Gift · {gift.giftType === 'item' ? 'Item' : 'Currency'}
              </span>
              {/* A currency gift's title is its link's amount, which can differ from what was given: its text says what was. */}
              <strong className="gift-msg__title">{giftTitle}</strong>
              {giftNote ? <p className="gift-msg__text">{giftNote}</p> : null}
            </div>
          </div>
        ) : (
          <div className="msg__bubble">
            <span className="visually-hidden">{who}: </span>
            {message.text}
          </div>
        )}
        <time className="msg__meta" dateTime={message.createdAt}>
          {timeLabel(message.createdAt)}
        </time>
      </li>
    </>
  );
}
