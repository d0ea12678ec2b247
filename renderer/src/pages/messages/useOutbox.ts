import { useCallback, useState } from 'react';
import { useAtomValue } from 'jotai';
import { MESSAGE_UNDELIVERABLE } from '../../../../api/contract/texts';
import type { ApiErrorCode } from '../../api/client';
import { useSendMessage } from '../../api/conversations';
import { randomUuid } from '../../ids';
import { realtimeAtom, useIncomingMessages, type IncomingMessage } from '../../state/realtime';

/** A message on its way (STYLE: a state of its own, shown at once, retried on failure). */
export interface Outgoing {
  clientId: string;
  text: string;
  status: 'pending' | 'failed';
  /** Why the server refused it for good (the abuse filter, a block): shown instead of Retry, which would not help. */
  refused?: string;
}

/**
 * The text of a refusal that sending again cannot change: the abuse filter's reason, or a block's
 * MESSAGE_UNDELIVERABLE (a 403 over HTTP or the socket's ack, which carry the same code and text).
 * Anything else (offline, a timeout, a server fault) is worth a Retry.
 */
export function finalRefusal(err: unknown): string | undefined {
  if (!(err instanceof Error)) return undefined;
  const code = (err as { code?: ApiErrorCode }).code;
  if (code === 'abusive_text') return err.message;
  if (code === 'forbidden' && err.message === MESSAGE_UNDELIVERABLE) return MESSAGE_UNDELIVERABLE;
  return undefined;
}

/**
 * The messages being sent in one conversation: each shows at once as pending, leaves when the
 * server has it (the answer, or the socket bringing it back with its clientId), and stays as
 * failed with Retry and Delete when it could not be sent (only Delete when it was refused for good).
 */
export function useOutbox(conversationId: string, userId: string) {
  const connection = useAtomValue(realtimeAtom);
  const { mutateAsync: sendMessage } = useSendMessage(conversationId, userId, connection);
  const [outgoing, setOutgoing] = useState<Outgoing[]>([]);

  const drop = useCallback((clientId: string) => setOutgoing((list) => list.filter((o) => o.clientId !== clientId)), []);

  const deliver = useCallback(
    async (clientId: string, text: string) => {
      setOutgoing((list) => [...list.filter((o) => o.clientId !== clientId), { clientId, text, status: 'pending' }]);
      try {
        await sendMessage({ clientId, text });
        drop(clientId);
      } catch (err) {
        const refused = finalRefusal(err);
        setOutgoing((list) => list.map((o) => (o.clientId === clientId ? { ...o, status: 'failed', refused } : o)));
      }
    },
    [sendMessage, drop],
  );

  const onIncoming = useCallback(
    (event: IncomingMessage) => {
      const { message } = event;
      if (event.conversationId !== conversationId || !message.mine) return;
      setOutgoing((list) => {
        if (event.clientId) return list.filter((o) => o.clientId !== event.clientId);
        // Caught up without its clientId (the ack was lost in a disconnect): it did arrive.
        const index = list.findIndex((o) => o.status === 'failed' && o.text === message.text);
        return index === -1 ? list : [...list.slice(0, index), ...list.slice(index + 1)];
      });
    },
    [conversationId],
  );
  useIncomingMessages(onIncoming);

  return {
    outgoing,
    // A refused message says why beside it: the page's 'try again later' would be wrong for it.
    failed: outgoing.some((o) => o.status === 'failed' && !o.refused),
    send: (text: string) => void deliver(randomUuid(), text),
    retry: (o: Outgoing) => void deliver(o.clientId, o.text),
    discard: drop,
  };
}
