import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import type { ConversationView } from '../../api/types';
import { ChevronLeftIcon, GiftIcon } from '../../components/Icons';
import { Avatar } from '../../components/ProfileImages';
import { VerifiedBadge } from '../../components/VerifiedBadge';
import { connectionStatusAtom } from '../../state/realtime';
import { ThreadMenu } from './ThreadMenu';

/** Back to the inbox, who the conversation is with, and the socket's state while it is not connected. */
export function ThreadHeader({ conversation, name }: { conversation: ConversationView | null; name: string | null }) {
  const connectionStatus = useAtomValue(connectionStatusAtom);
  return (
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
            <Avatar src={conversation.otherUser.profilePicture} name={name ?? 'Them'} size={42} className="thread__avatar" />
          )}
          <div className="thread__who">
            <h1 className="thread__name">
              {name}
              {!conversation.otherUser.anonymous && conversation.otherUser.isSubscribed ? (
                <VerifiedBadge size={18} className="verified-badge--inline" />
              ) : null}
            </h1>
            <p className="thread__sub">
              {conversation.otherUser.anonymous ? (
                'Anonymous giver'
              ) : (
                <>
                  <Link to={`/profile/${encodeURIComponent(conversation.otherUser.username)}`}>@{conversation.otherUser.username}</Link>
                  {conversation.youAreAnonymous ? (
                    <>
                      <span className="thread__sub-sep"> · </span>
                      <span className="thread__sub-note">you are anonymous here</span>
                    </>
                  ) : null}
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
      {conversation ? <ThreadMenu conversation={conversation} /> : null}
    </header>
  );
}
