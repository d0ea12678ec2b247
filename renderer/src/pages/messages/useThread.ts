import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../api/client';
import {
  conversationKeys,
  getMessages,
  readNewestPage,
  threadMessages,
  useConversationQuery,
  useInboxConversation,
  useMessagesQuery,
} from '../../api/conversations';
import type { MessagesPage } from '../../api/types';
import { useIncomingMessages, useMarkConversationRead, useReconnected, type IncomingMessage } from '../../state/realtime';

/** Messages that arrive while the thread is on screen are marked read after this pause. */
const READ_DELAY_MS = 250;

const isVisible = () => document.visibilityState === 'visible';

/** 'missing' when the conversation does not exist or is not the user's. */
export type ThreadError = null | 'load' | 'older' | 'missing';

/**
 * One conversation's data: its header (the inbox's copy until its own answer), its messages 25 a
 * page from the newest (the socket adds live ones to the cached thread), and reading: opening the
 * thread marks it read, and so does every message that arrives while it is on screen.
 */
export function useThread(conversationId: string, userId: string) {
  const queryClient = useQueryClient();
  const { begin, finish } = useMarkConversationRead(userId);

  // ---- the conversation (header) ------------------------------------------------------------------
  const found = useConversationQuery(conversationId);
  const inInbox = useInboxConversation(userId, conversationId);
  const conversation = found.data ?? inInbox;

  // ---- messages: reading the newest page marks the conversation read ------------------------------
  const fetchPage = useCallback(
    async (page: number, signal: AbortSignal): Promise<MessagesPage> => {
      if (page !== 1) return getMessages(conversationId, page, signal);
      begin(conversationId);
      try {
        const newest = await getMessages(conversationId, 1, signal);
        finish(conversationId, newest.markedAsRead);
        return newest;
      } catch (err) {
        finish(conversationId, 0);
        throw err;
      }
    },
    [conversationId, begin, finish],
  );
  const query = useMessagesQuery(conversationId, fetchPage);
  const { data, error, isError, isFetchNextPageError } = query;
  const messages = useMemo(() => threadMessages(data), [data]);
  const missing = isError && !data && error instanceof ApiError && (error.status === 404 || error.status === 403);
  const threadError: ThreadError = missing ? 'missing' : isError && !data ? 'load' : isFetchNextPageError ? 'older' : null;

  // ---- reading what arrives while on screen ---------------------------------------------------------
  const reread = useMutation({
    mutationFn: () => readNewestPage(queryClient, conversationId),
    onSuccess: (page) => finish(conversationId, page.markedAsRead),
    onError: () => finish(conversationId, 0),
  });
  const { mutate: rereadNewest } = reread;
  const readTimer = useRef<number | undefined>(undefined);
  const unreadWhileHidden = useRef(false);
  const syncRead = useCallback(() => {
    if (!isVisible()) {
      unreadWhileHidden.current = true;
      return;
    }
    begin(conversationId);
    window.clearTimeout(readTimer.current);
    readTimer.current = window.setTimeout(() => rereadNewest(), READ_DELAY_MS);
  }, [conversationId, begin, rereadNewest]);
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
    if (queryClient.getQueryData(conversationKeys.messages(conversationId))) syncRead();
  }, [queryClient, conversationId, syncRead]);
  useReconnected(onReconnect);

  // A message from the other side while the thread is open: it is read.
  const onIncoming = useCallback(
    (event: IncomingMessage) => {
      if (event.conversationId === conversationId && !event.message.mine) syncRead();
    },
    [conversationId, syncRead],
  );
  useIncomingMessages(onIncoming);

  return {
    conversation,
    /** The conversation's own answer failed (the header may still show the inbox's copy). */
    findFailed: found.isError,
    messages,
    query,
    error: threadError,
  };
}
