import { useAtomValue } from 'jotai';
import { Link, useParams } from 'react-router-dom';
import { FIND_CONVERSATION_ERROR, SEND_ERROR } from '../../api/conversations';
import type { User } from '../../api/types';
import { GiftIcon } from '../../components/Icons';
import { usePageTitle } from '../../components/usePageTitle';
import { userAtom } from '../../state/session';
import { otherPartyName } from '../conversations/ConversationsPage';
import { Composer } from './Composer';
import { MessageList } from './MessageList';
import { ThreadHeader } from './ThreadHeader';
import { useOutbox } from './useOutbox';
import { useThread } from './useThread';
import './MessagesPage.css';

/** /messages/{conversationId}: one conversation, live. */
export function MessagesPage() {
  const { conversationId = '' } = useParams();
  const user = useAtomValue(userAtom);
  if (!user) return null;
  // A fresh thread per conversation: nothing of one leaks into the next.
  return <Thread key={conversationId} conversationId={conversationId} user={user} />;
}

function Thread({ conversationId, user }: { conversationId: string; user: User }) {
  const thread = useThread(conversationId, user._id);
  const outbox = useOutbox(conversationId, user._id);
  const { conversation } = thread;
  const name = conversation ? otherPartyName(conversation) : null;
  usePageTitle(name ?? 'Messages');

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
      <ThreadHeader conversation={conversation} name={name} />
      {thread.findFailed ? (
        <div className="alert thread__notice" role="alert">
          {FIND_CONVERSATION_ERROR}
        </div>
      ) : null}
      <MessageList
        messages={thread.messages}
        outgoing={outbox.outgoing}
        otherLabel={name ?? 'Them'}
        returnGiftsIn={conversation?.otherUser.anonymous ? conversationId : null}
        query={thread.query}
        error={thread.error}
        onRetrySend={outbox.retry}
        onDiscard={outbox.discard}
      />
      {outbox.failed ? (
        <div className="alert thread__send-error" role="alert">
          {SEND_ERROR}
        </div>
      ) : null}
      <Composer onSend={outbox.send} />
    </div>
  );
}
