import { useLayoutEffect, useEffect, useRef } from 'react';
import { MESSAGES_ERROR } from '../../api/conversations';
import type { MessageView } from '../../api/types';
import { RetryAlert } from '../../components/RetryAlert';
import { PageSpinner, Spinner } from '../../components/Spinner';
import { useInfiniteScroll, type Pager } from '../../components/useInfiniteScroll';
import { MessageItem, OutgoingItem, dayKey, dayLabel } from './MessageItem';
import type { Outgoing } from './useOutbox';
import type { ThreadError } from './useThread';

/** Older messages load when the list is scrolled this close to its top. */
const LOAD_OLDER_MARGIN = '120px 0px 0px 0px';
/** New messages keep the list at the bottom when the reader is this close to it. */
const STICK_TO_BOTTOM_PX = 120;

function isNearBottom(el: HTMLElement): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight < STICK_TO_BOTTOM_PX;
}

interface MessageListProps {
  messages: MessageView[];
  outgoing: Outgoing[];
  otherLabel: string;
  /** The thread, when the other member is an anonymous giver: their gifts can be returned. */
  returnGiftsIn: string | null;
  /** The thread's infinite query: its first page, older pages, retries. */
  query: Pager & { isPending: boolean; isFetchingNextPage: boolean; hasNextPage: boolean; refetch: () => unknown };
  error: ThreadError;
  onRetrySend: (outgoing: Outgoing) => void;
  onDiscard: (clientId: string) => void;
}

/**
 * The thread's scrolling list: older pages load as the reader nears the top (a sentinel), the
 * reader keeps their place when they do, and new messages keep the list at the bottom when the
 * reader was there (always for their own).
 */
export function MessageList({ messages, outgoing, otherLabel, returnGiftsIn, query, error, onRetrySend, onDiscard }: MessageListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const sentinel = useInfiniteScroll(query, {
    root: scroller,
    rootMargin: LOAD_OLDER_MARGIN,
    enabled: !query.isPending && !error && messages.length > 0,
  });

  /** Where the reader was before this render: at the bottom or not, and where the oldest message stood. */
  const place = useRef<{ stuck: boolean; oldest?: string; oldestTop: number }>({ stuck: true, oldestTop: 0 });
  /** What the last render showed at each end. */
  const shown = useRef<{ first?: string; last?: string; outgoing: number } | null>(null);

  const remember = () => {
    const el = scroller.current;
    if (!el) return;
    const oldest = el.querySelector<HTMLElement>('li[data-id]');
    place.current = {
      stuck: isNearBottom(el),
      oldest: oldest?.dataset.id,
      oldestTop: oldest ? oldest.getBoundingClientRect().top - el.getBoundingClientRect().top : 0,
    };
  };

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const first = messages[0]?._id;
    const newest = messages[messages.length - 1];
    const before = shown.current;
    shown.current = { first, last: newest?._id, outgoing: outgoing.length };
    const toBottom = () => {
      el.scrollTop = el.scrollHeight;
    };
    if (!before || (!before.last && newest))
      toBottom(); // the thread as it opens
    else if (outgoing.length > before.outgoing)
      toBottom(); // the reader sent a message
    else if (newest && newest._id !== before.last && (newest.mine || place.current.stuck)) toBottom();
    else if (first !== before.first && before.first) {
      // Older messages above: the one that was oldest stays where the reader saw it.
      const { oldest, oldestTop } = place.current;
      const anchor = oldest ? el.querySelector<HTMLElement>(`li[data-id="${CSS.escape(oldest)}"]`) : null;
      if (anchor) el.scrollTop += anchor.getBoundingClientRect().top - el.getBoundingClientRect().top - oldestTop;
    }
    remember();
  });

  // The list gets shorter when the input grows, an error shows or the phone keyboard opens.
  useEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (place.current.stuck) el.scrollTop = el.scrollHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  return (
    <div className="thread__scroller" ref={scroller} onScroll={remember}>
      <div ref={sentinel} className="thread__sentinel" aria-hidden="true" />
      {query.isFetchingNextPage ? (
        <div className="thread__older">
          <Spinner size={20} label="Loading older messages" />
        </div>
      ) : null}
      {error === 'older' ? (
        <RetryAlert className="thread__notice" message={MESSAGES_ERROR} onRetry={() => void query.fetchNextPage()} />
      ) : null}
      {!query.hasNextPage && messages.length > 0 ? <p className="thread__start">This is the start of your conversation.</p> : null}

      {query.isPending ? <PageSpinner label="Loading messages" /> : null}
      {error === 'load' ? <RetryAlert className="thread__notice" message={MESSAGES_ERROR} onRetry={() => void query.refetch()} /> : null}
      {!query.isPending && !error && messages.length === 0 && outgoing.length === 0 ? (
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
              returnGiftsIn={returnGiftsIn}
            />
          );
        })}
        {outgoing.map((o) => (
          <OutgoingItem key={o.clientId} outgoing={o} onRetry={() => onRetrySend(o)} onDiscard={() => onDiscard(o.clientId)} />
        ))}
      </ol>
    </div>
  );
}
